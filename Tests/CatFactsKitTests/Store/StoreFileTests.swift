@testable import CatFactsKit
import Foundation
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
            try SQLiteConnection(path: path).execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
            try await expectRebuilt(path: path, folder: folder, because: "not a CatFacts cache")
            let aside = try #require(files(in: folder, containing: ".corrupt-").first { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
            let moved = try SQLiteConnection(path: folder.appendingPathComponent(aside).path)
            #expect(try moved.firstRow("SELECT text FROM notes") { row throws(SQLiteError) in try row.text(0) } == "mine")
            #expect(try moved.firstRow("PRAGMA journal_mode") { row throws(SQLiteError) in try row.text(0) } == "delete")
        }
    }

    @Test func aDamagedRowIsAWarningAndTheNetworkAnswers() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            try await withMock { _, server in
                _ = try await cachingClient(server.baseURL) { $0.cachePath = path }.breeds(page: 1, limit: 5)
                try SQLiteConnection(path: path).execute("UPDATE response SET fetched_at = 'soon'")
                let client = try cachingClient(server.baseURL) { $0.cachePath = path }
                #expect(try await client.breeds(page: 1, limit: 5).source == .network)
                #expect(client.cacheWarnings.count == 1)
                #expect(client.cacheWarnings.first?.contains("column fetched_at holds a value of another type") == true,
                        "\(client.cacheWarnings)")
                #expect(try await client.breeds(page: 1, limit: 5).source == .cache)  // the row was written anew
            }
        }
    }

    @Test func aStoreErrorNamesTheSQLiteMessage() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let store = try ResponseStore(path: path, maxBytes: 1 << 20)
            try SQLiteConnection(path: path).execute("DROP TABLE response")
            let error = try #require(throws: CatFactsError.self) { try store.keys() }
            #expect(error == .internal("the cache could not list the keys: SQLite error 1: no such table: response"
                                       + " - while executing `\(ResponseStore.leastRecentlyUsed[0])`"
                                       + "; delete the cache file (it holds only copies of pages), or set cache_path elsewhere"))
        }
    }

    /// Its pages were filed without their server: they are dropped with a warning, never
    /// answered for whichever server asks first.
    @Test func aFileWrittenThroughGRDBIsUpgradedAndItsOriginlessPagesDropped() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            // What GRDB's migrator left after the first migration: its table, then v1.
            try SQLiteConnection(path: path).execute("""
                PRAGMA journal_mode = WAL;
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                BEGIN IMMEDIATE;
                \(StoreSchema.migrations[0].sql);
                INSERT INTO grdb_migrations VALUES ('v1: response');
                COMMIT;
                INSERT INTO response VALUES ('/facts', '/facts', x'7b7d', 76, 1700000000.5, 1700000001, '"e1"', NULL);
                """)
            let store = try ResponseStore(path: path, maxBytes: 1 << 20)
            #expect(store.path == path)
            #expect(store.warnings.all == ["the cache file \(path): dropped 1 cached page(s) an earlier version filed without "
                                           + "their server (they could have answered for another one); they load again when asked"])
            #expect(try store.keys().isEmpty)
            #expect(try store.lookup(CacheKey(origin: "http://127.0.0.1:8106", endpoint: .facts, query: [])) == nil)
            // Opened again: nothing more to drop, nothing more to say.
            #expect(try ResponseStore(path: path, maxBytes: 1 << 20).warnings.all.isEmpty)
            let db = try SQLiteConnection(path: path)
            #expect(try db.rows("SELECT identifier FROM grdb_migrations ORDER BY rowid") { row throws(SQLiteError) in try row.text(0) }
                    == ["v1: response", "v2: size index", "v3: denied prefix", "v4: keys with their origin", "v5: decoded page",
                        "v6: use times"])
            let added = """
                SELECT name FROM sqlite_master
                WHERE name IN ('response_size', 'denied_prefix', 'response_times', 'response_times_used', 'response_key_times')
                """
            #expect(try db.rows(added) { row throws(SQLiteError) in try row.text(0) }.count == 5)
        }
    }

    /// Eight rounds, each on its own new file: the race this guards (one opener reading the
    /// file's kind while another commits the first migration) has a window of microseconds,
    /// which a single round hit about once in 40 runs, and only on a loaded machine.
    @Test(arguments: 0..<8) func severalStoresCreatingOneFileAtOnceAllSucceed(round: Int) async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let stores = try await withThrowingTaskGroup(of: ResponseStore.self) { group in
                for _ in 0..<6 {
                    group.addTask { try ResponseStore(path: path, maxBytes: 1 << 20) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (n, store) in stores.enumerated() {
                #expect(store.path == path)
                #expect(store.warnings.all.isEmpty, "\(store.warnings.all)")
                try store.save(CacheKey(origin: "http://127.0.0.1:8106", endpoint: .facts, query: [QueryItem(name: "page", value: "\(n)")]),
                               body: [UInt8(n)], fetchedAt: .now, etag: nil, lastModified: nil)
            }
            #expect(try stores.map { try $0.keys().count } == Array(repeating: stores.count, count: stores.count))
            let db = try SQLiteConnection(path: path)
            #expect(try db.firstRow("SELECT count(*) FROM grdb_migrations") { row throws(SQLiteError) in try row.int64(0) }
                    == Int64(StoreSchema.migrations.count))
            #expect(try db.firstRow("PRAGMA application_id") { row throws(SQLiteError) in try row.int64(0) } == Int64(StoreSchema.applicationID))
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
                #expect(client.cacheWarnings.first?.hasSuffix("cache.sqlite: Not a directory") == true, "\(client.cacheWarnings)")
                _ = try await client.breeds(page: 1, limit: 5)
                #expect(try await client.breeds(page: 1, limit: 5).source == .cache)
            }
        }
    }
}
