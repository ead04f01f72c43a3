@testable import CatFactsKit
import Foundation
import Testing

@Suite("The cache's use times: noted apart from the rows, never by rewriting a page")
struct UseTimesTests {
    private let origin = "http://127.0.0.1:8106"

    private func key(_ page: Int) -> CacheKey {
        CacheKey(origin: origin, endpoint: .breeds, query: [QueryItem(name: "page", value: "\(page)")])
    }

    private func walBytes(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    }

    /// SQLite rewrites a whole row to change one column: when a use was noted in the row, each
    /// use of a 300 kB page built the row anew in the heap (a 300 kB block) and logged 16
    /// pages of it. Noted in `response_times`, a use logs a page (two when its b-tree splits).
    @Test func usesOfALargePageWriteAPageOrTwoEachNotThePage() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let store = try ResponseStore(path: path, maxBytes: 1 << 24)
            let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
            try store.save(key(1), body: body, fetchedAt: .now, etag: nil, lastModified: nil)
            let watcher = try SQLiteConnection(path: path)
            try watcher.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            #expect(try walBytes(path) == 0)
            for _ in 0..<10 {
                store.noteUse(key(1))
                _ = try store.keys()  // the order is read: the use is written first, one transaction
            }
            let written = try walBytes(path)
            #expect(written > 0, "no use was written")
            // The log's header, then frames of a page and its own header each.
            #expect(written <= 32 + 10 * 2 * (4_096 + 24), "10 uses wrote \(written) bytes to the log")
            #expect(try store.lookup(key(1))?.body == body)
        }
    }

    /// The order and the times read back are the later of the row's own and those noted since;
    /// a save starts its row's times afresh, and a removal takes them away.
    @Test func theOrderAndTheTimesAreTheLatestNoted() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let store = try ResponseStore(path: path, maxBytes: 1 << 20)
            let fetched = Timestamp(timeIntervalSince1970: 1_700_000_000)
            for page in 1...3 { try store.save(key(page), body: [UInt8(page)], fetchedAt: fetched, etag: nil, lastModified: nil) }
            #expect(try store.keys() == [key(1), key(2), key(3)].map(\.description))
            store.noteUse(key(1))
            #expect(try store.keys() == [key(2), key(3), key(1)].map(\.description))
            // A 304: fetched now, and used.
            let confirmed = Timestamp(timeIntervalSince1970: 1_800_000_000)
            try store.touch(key(2), fetchedAt: confirmed)
            #expect(try store.keys() == [key(3), key(1), key(2)].map(\.description))
            #expect(try store.lookup(key(2))?.fetchedAt == confirmed)
            #expect(try store.lookup(key(3))?.fetchedAt == fetched)
            let db = try SQLiteConnection(path: path)
            func timedKeys() throws -> [String] {
                try db.rows("SELECT key FROM response_times ORDER BY key") { row throws(SQLiteError) in try row.text(0) }
            }
            #expect(try timedKeys() == [key(1), key(2), key(3)].map(\.description))
            // The rows themselves were not written: their times are the saves'.
            #expect(try db.rows("SELECT fetched_at FROM response ORDER BY rowid") { row throws(SQLiteError) in try row.double(0) }
                    == Array(repeating: fetched.timeIntervalSince1970, count: 3))
            // Saved again: fetched as the save says, the time the 304 noted gone.
            try store.save(key(2), body: [9], fetchedAt: fetched, etag: nil, lastModified: nil)
            #expect(try store.lookup(key(2))?.fetchedAt == fetched)
            try store.remove(key(1))
            #expect(try timedKeys() == [key(2), key(3)].map(\.description))
            // A use of a page another process removed (its row and its times) before the use
            // was written, and a 304 for a page not filed, note nothing.
            store.noteUse(key(3))
            try db.execute("DELETE FROM response WHERE key = ?", [.text(key(3).description)])
            try db.execute("DELETE FROM response_times WHERE key = ?", [.text(key(3).description)])
            try store.touch(key(4), fetchedAt: confirmed)  // a write: the use noted is written first
            #expect(try store.keys() == [key(2)].map(\.description))
            #expect(try timedKeys() == [key(2)].map(\.description))
        }
    }

    /// A save at the cap stops at the first rows it evicts: the order's first part reads two
    /// indexes, in order, and no row (each row's size sits after its body).
    @Test func theOrderReadsIndexesInOrderAndNoRow() throws {
        let db = try SQLiteConnection(path: nil)
        try StoreSchema.migrate(db)
        let plan = try db.rows("EXPLAIN QUERY PLAN " + ResponseStore.leastRecentlyUsed[0], [.text("")]) {
            row throws(SQLiteError) in try row.text(3)
        }
        #expect(plan.contains { $0.hasPrefix("SCAN t USING COVERING INDEX response_times_used") }, "\(plan)")
        #expect(plan.contains { $0.hasPrefix("SEARCH r USING COVERING INDEX response_key_times") }, "\(plan)")
        #expect(!plan.contains("USE TEMP B-TREE FOR ORDER BY"), "\(plan)")  // a sort of every row
    }

    /// Rows filed before the times table have their times copied into it; a row an earlier
    /// library saves since comes after the rows whose times are noted, in the order of its
    /// own (its uses are not known), until a use noted here puts it back among them.
    @Test func rowsOfAnEarlierLibraryAreOrderedByTheirOwnTimes() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let store = try ResponseStore(path: path, maxBytes: 1 << 20)
            for page in 1...3 { try store.save(key(page), body: [UInt8(page)], fetchedAt: .now, etag: nil, lastModified: nil) }
            let db = try SQLiteConnection(path: path)
            // An earlier library saves page 4, then page 1 again.
            for page in [4, 1] {
                try db.execute("""
                    INSERT OR REPLACE INTO response (key, endpoint, body, size, fetched_at, last_used_at) VALUES (?, 'breeds', x'00', 70, ?, ?)
                    """, [.text(key(page).description), .real(Timestamp.now.timeIntervalSince1970),
                          .real(Timestamp.now.timeIntervalSince1970)])
            }
            #expect(try store.keys() == [key(2), key(3), key(4), key(1)].map(\.description))
            store.noteUse(key(4))
            #expect(try store.keys() == [key(2), key(3), key(4), key(1)].map(\.description))
            store.noteUse(key(2))
            #expect(try store.keys() == [key(3), key(4), key(2), key(1)].map(\.description))
        }
    }

    /// A file of the schema before (v5) opens with its rows' times copied, in their order.
    @Test func rowsFiledBeforeTheTimesTableKeepTheirOrder() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let old = try SQLiteConnection(path: path)
            try old.execute("CREATE TABLE \(StoreSchema.migrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
            for migration in StoreSchema.migrations.prefix(while: { $0.identifier != "v6: use times" }) {
                try old.execute(migration.sql)
                try old.execute("INSERT INTO \(StoreSchema.migrationsTable) VALUES (?)", [.text(migration.identifier)])
            }
            for (page, used) in [(1, 1_700_000_002.0), (2, 1_700_000_001.0)] {
                try old.execute("INSERT INTO response (key, endpoint, body, size, fetched_at, last_used_at) VALUES (?, 'breeds', x'00', 70, 1, ?)",
                                [.text(key(page).description), .real(used)])
            }
            let store = try ResponseStore(path: path, maxBytes: 1 << 20)
            #expect(store.warnings.all.isEmpty, "\(store.warnings.all)")
            #expect(try store.keys() == [key(2), key(1)].map(\.description))
            #expect(try old.rows("SELECT last_used_at FROM response_times ORDER BY last_used_at") { row throws(SQLiteError) in
                try row.double(0)
            } == [1_700_000_001, 1_700_000_002])
        }
    }

    /// A library before the times table notes a use in the row: when that is later than the
    /// time noted apart, the row's counts.
    @Test func aUseWrittenInTheRowByAnEarlierLibraryCounts() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let store = try ResponseStore(path: path, maxBytes: 1 << 20)
            for page in 1...2 { try store.save(key(page), body: [UInt8(page)], fetchedAt: .now, etag: nil, lastModified: nil) }
            store.noteUse(key(1))
            #expect(try store.keys() == [key(2), key(1)].map(\.description))
            let later = Timestamp.now.timeIntervalSince1970 + 60
            try SQLiteConnection(path: path).execute("UPDATE response SET last_used_at = ? WHERE key = ?",
                                                     [.real(later), .text(key(2).description)])
            #expect(try store.keys() == [key(1), key(2)].map(\.description))
            #expect(try store.lookup(key(2))?.lastUsedAt.timeIntervalSince1970 == later)
        }
    }
}
