@testable import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("The cache's decoded pages: a hit within the TTL reads nothing, decodes nothing, writes nothing")
struct DecodedPagesTests {
    private func page(_ names: [String]) throws -> BreedArenaPage {
        let items = names.map { #"{"breed":"\#($0)","country":"","origin":"","coat":"","pattern":""}"# }
        let body = #"{"current_page":1,"data":[\#(items.joined(separator: ","))],"last_page":1,"per_page":10,"total":\#(names.count)}"#
        return try ScanningPageDecoder().decodeBreedArena(from: Array(body.utf8))
    }

    @Test func aHitWritesNothingUntilTheNextWriteOrReadOfTheOrder() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            try await withMock { _, server in
                let client = try cachingClient(server.baseURL) { $0.cachePath = path }
                _ = try await client.breeds(page: 1, limit: 5)
                let watcher = try SQLiteConnection(path: path)
                func lastUsed() throws -> Double {
                    try watcher.firstRow("""
                        SELECT max(r.last_used_at, coalesce(t.last_used_at, 0)) FROM response AS r
                        LEFT JOIN response_times AS t ON t.key = r.key
                        """) { row throws(SQLiteError) in try row.double(0) } ?? 0
                }
                let saved = try lastUsed()
                let hit = try await client.breeds(page: 1, limit: 5)
                #expect(hit.source == .cache && hit.arena != nil && hit.count == 5)
                #expect(try lastUsed() == saved, "a hit wrote its use on the caller's path")
                #expect(client.cacheHits() == 1)
                _ = try #require(client.store).keys()  // the order is read: the uses are written first
                #expect(try lastUsed() > saved)
            }
        }
    }

    @Test func pagesKeptAreCappedInBytesLeastRecentlyUsedOut() throws {
        let one = try page(["Abyssinian", "Aegean"])
        let kept = DecodedPages(maxBytes: 2 * (one.keptBytes + 3))
        kept.keep(one, under: "a", fetchedAt: .now)
        kept.keep(one, under: "b", fetchedAt: .now)
        #expect(kept.lookup("a", as: BreedArenaPage.self) != nil)  // "a" is now the most recently used
        kept.keep(one, under: "c", fetchedAt: .now)
        #expect(kept.lookup("b", as: BreedArenaPage.self) == nil)
        #expect(kept.lookup("a", as: BreedArenaPage.self)?.0.arena.name(at: 1) == "Aegean")
        #expect(kept.lookup("c", as: PageBody<Fact>.self) == nil)  // another type is never answered
        kept.keep(PageBody<Fact>(currentPage: 1, lastPage: 1, perPage: 1, total: 0, items: []), under: "d", fetchedAt: .now)
        #expect(kept.lookup("d", as: PageBody<Fact>.self) == nil)  // values it cannot size are not kept
        kept.remove("a")
        #expect(kept.lookup("a", as: BreedArenaPage.self) == nil)
    }

    /// A file as the library before decoded pages wrote it (schema v4: bodies only) opens, its
    /// pages answer from their bodies, and pages written now carry their decoded form, which
    /// a new client (a new process) reads back without the body.
    @Test func aFileOfTheEarlierSchemaOpensAndDecodedPagesAreReadWithoutTheirBodies() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            try await withMock { _, server in
                let first = try await cachingClient(server.baseURL) { $0.cachePath = path }.breeds(page: 1, limit: 5)
                // Back to the earlier schema: no decoded columns, v5 not applied.
                let old = try SQLiteConnection(path: path)
                try old.execute("ALTER TABLE response DROP COLUMN decoded")
                try old.execute("ALTER TABLE response DROP COLUMN decoded_format")
                try old.execute("DELETE FROM grdb_migrations WHERE identifier = 'v5: decoded page'")
                let reopened = try cachingClient(server.baseURL) { $0.cachePath = path }
                let fromBody = try await reopened.breeds(page: 1, limit: 5)
                #expect(fromBody.source == .cache && fromBody.items == first.items)
                #expect(reopened.cacheWarnings.isEmpty, "\(reopened.cacheWarnings)")
                // Written now: with its decoded form; the body is made unreadable to show it is not read.
                _ = try await reopened.breeds(page: 2, limit: 5)
                let formats = try old.rows("SELECT coalesce(decoded_format, 0) FROM response ORDER BY key") {
                    row throws(SQLiteError) in try row.int64(0)
                }
                #expect(formats == [0, Int64(BreedArenaPage.format)])
                try old.execute("UPDATE response SET body = x'00' WHERE decoded_format IS NOT NULL")
                let fresh = try cachingClient(server.baseURL) { $0.cachePath = path }
                let restored = try await fresh.breeds(page: 2, limit: 5)
                #expect(restored.source == .cache && restored.count == 5 && restored.arena != nil)
                #expect(restored.items.map(\.breed) == (try await reopened.breeds(page: 2, limit: 5)).items.map(\.breed))
                #expect(fresh.cacheWarnings.isEmpty, "\(fresh.cacheWarnings)")
            }
        }
    }
}
