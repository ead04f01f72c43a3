import CatFactsKit
import Foundation
import GRDB
import Testing

@Suite("The cache file: created, shared, and rebuilt when it is damaged or foreign")
struct StoreFileTests {
    @Test func aCacheFileIsCreatedWithItsFolderAndSharedByTwoClients() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("deep/er/cache.sqlite").path
            try await withMock { _, server in
                let first = try cachingClient(server.baseURL) { $0.cachePath = path }
                let page = try await first.breeds(page: 1, limit: 5)
                let second = try cachingClient(server.baseURL) { $0.cachePath = path }
                let again = try await second.breeds(page: 1, limit: 5)
                #expect(again.source == .cache)
                #expect(again.items == page.items)
                #expect(server.requestCount(path: "/breeds") == 1)
                #expect(second.cacheWarnings.isEmpty)
            }
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func aFileOfRandomBytesIsMovedAsideAndRebuilt() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            var random = SystemRandomNumberGenerator()
            let junk = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &random) }
            try Data(junk).write(to: URL(fileURLWithPath: path))
            try await expectRebuilt(path: path, folder: folder, because: "not a valid SQLite database")
        }
    }

    @Test func aForeignSQLiteFileIsMovedAsideUntouched() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let foreign = try DatabaseQueue(path: path)
            try await foreign.write { db in
                try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
            }
            try foreign.close()
            try await expectRebuilt(path: path, folder: folder, because: "not a CatFacts cache")
            let aside = try #require(files(in: folder, containing: ".corrupt-").first { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
            let moved = try DatabaseQueue(path: folder.appendingPathComponent(aside).path)
            #expect(try await moved.read { try String.fetchOne($0, sql: "SELECT text FROM notes") } == "mine")
            #expect(try await moved.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "delete")
        }
    }

    /// Opens a client on `path`: the call succeeds, the old file is aside, a warning says why.
    private func expectRebuilt(path: String, folder: URL, because reason: String) async throws {
        try await withMock { _, server in
            let client = try cachingClient(server.baseURL) { $0.cachePath = path }
            let page = try await client.breeds(page: 1, limit: 5)
            #expect(page.source == .network)
            #expect(try await client.breeds(page: 1, limit: 5).source == .cache)
            #expect(client.store?.path == path)
            #expect(files(in: folder, containing: "cache.sqlite.corrupt-").count >= 1)
            #expect(client.cacheWarnings.count == 1)
            #expect(client.cacheWarnings.first?.contains(reason) == true, "\(client.cacheWarnings)")
            #expect(client.cacheWarnings.first?.contains("moved it to") == true)
        }
    }

    @Test func aFolderThatCannotBeCreatedFallsBackToMemory() async throws {
        try await withTemporaryFolder { folder in
            let blocker = folder.appendingPathComponent("file")
            try Data("x".utf8).write(to: blocker)
            try await withMock { _, server in
                let client = try cachingClient(server.baseURL) { $0.cachePath = blocker.appendingPathComponent("cache.sqlite").path }
                #expect(client.store?.path == nil)
                #expect(!client.cacheWarnings.isEmpty)
                _ = try await client.breeds(page: 1, limit: 5)
                #expect(try await client.breeds(page: 1, limit: 5).source == .cache)
            }
        }
    }
}
