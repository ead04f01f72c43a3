@testable import CatFactsKit
import CSQLite
import Foundation
import Testing

@Suite("The SQLite connection: values round trip, errors carry SQLite's code and message")
struct SQLiteConnectionTests {
    @Test func aSQLErrorNamesTheSQLiteMessageAndTheStatement() throws {
        let db = try SQLiteConnection(path: nil)
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELECT * FROM nowhere") }
        #expect(error.code == SQLITE_ERROR)
        #expect(error.message == "no such table: nowhere")
        #expect(error.description == "SQLite error 1: no such table: nowhere - while executing `SELECT * FROM nowhere`"
                + "; delete the cache file (it holds only copies of pages), or set cache_path elsewhere")
        #expect(!error.isDamage)
    }

    @Test func aConstraintErrorCarriesTheExtendedCode() throws {
        let db = try SQLiteConnection(path: nil)
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        try db.execute("INSERT INTO t (name) VALUES (?)", [.text("a")])
        let error = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO t (name) VALUES (?)", [.text("a")]) }
        #expect(error.code == SQLITE_CONSTRAINT | 8 << 8)  // SQLITE_CONSTRAINT_UNIQUE, a macro Swift does not import
        #expect(error.primaryCode == SQLITE_CONSTRAINT)
        #expect(error.message == "UNIQUE constraint failed: t.name")
    }

    @Test func aFailedTransactionLeavesNothingBehind() throws {
        let db = try SQLiteConnection(path: nil)
        try db.execute("CREATE TABLE t (name TEXT NOT NULL)")
        #expect(throws: SQLiteError.self) {
            try db.transaction { () throws(SQLiteError) in
                try db.execute("INSERT INTO t (name) VALUES (?)", [.text("kept?")])
                try db.execute("INSERT INTO t (name) VALUES (?)", [.null])
            }
        }
        #expect(try db.rows("SELECT name FROM t") { row throws(SQLiteError) in try row.text(0) } == [])
        try db.transaction { () throws(SQLiteError) in try db.execute("INSERT INTO t (name) VALUES (?)", [.text("kept")]) }
        #expect(try db.rows("SELECT name FROM t") { row throws(SQLiteError) in try row.text(0) } == ["kept"])
    }

    @Test func everyKindOfValueRoundTrips() throws {
        let db = try SQLiteConnection(path: nil)
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, t TEXT, b BLOB, e BLOB NOT NULL, n TEXT)")
        let text = "é\u{0}日本🐈"  // a NUL inside does not end the text
        try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)",
                       [.integer(.min), .real(1.5), .text(text), .blob([0, 1, 255]), .blob([]), SQLiteValue(nil)])
        let row = try #require(try db.firstRow("SELECT i, r, t, b, e, n FROM t") { row throws(SQLiteError) in
            (try row.int64(0), try row.double(1), try row.text(2), try row.blob(3), try row.blob(4), try row.optionalText(5))
        })
        #expect(row.0 == .min)
        #expect(row.1 == 1.5)
        #expect(row.2 == text)
        #expect(row.3 == [0, 1, 255])
        #expect(row.4 == [])
        #expect(row.5 == nil)
        #expect(try db.firstRow("SELECT 1 WHERE 0") { row throws(SQLiteError) in try row.int64(0) } == nil)
    }

    @Test func aBlobIsBoundWhereItLiesNotCopied() throws {
        let db = try SQLiteConnection(path: nil)
        // 16 MB, more than SQLite asks malloc for anywhere else in these tests (SQLite's
        // largest request is counted process-wide): copied, as SQLITE_TRANSIENT does, it is
        // one request of exactly that size.
        var blob = [UInt8](repeating: 7, count: 16 << 20)
        blob[blob.count - 2] = 0xCA
        blob[blob.count - 1] = 0xFE
        var current: Int64 = 0
        var largest: Int64 = 0
        sqlite3_status64(SQLITE_STATUS_MALLOC_SIZE, &current, &largest, 1)
        let read = try db.firstRow("SELECT length(?1), hex(substr(?1, -3))", [.blob(blob)]) { row throws(SQLiteError) in
            (try row.int64(0), try row.text(1))
        }
        sqlite3_status64(SQLITE_STATUS_MALLOC_SIZE, &current, &largest, 0)
        #expect(read?.0 == Int64(16 << 20))
        #expect(read?.1 == "07CAFE")
        #expect(largest < Int64(blob.count), "SQLite copied the blob: a request of \(largest) bytes")
        // The count is kept (a request that large shows).
        sqlite3_free(sqlite3_malloc64(UInt64(blob.count)))
        sqlite3_status64(SQLITE_STATUS_MALLOC_SIZE, &current, &largest, 0)
        #expect(largest >= Int64(blob.count))
    }

    @Test func aBindingThatFailsIsAnErrorAndLeavesTheStatementUsable() throws {
        let db = try SQLiteConnection(path: nil)
        try db.execute("CREATE TABLE t (b BLOB)")
        let sql = "INSERT INTO t VALUES (?)"
        // One parameter, two values: the second fails after the blob is bound.
        let error = try #require(throws: SQLiteError.self) { try db.execute(sql, [.blob([1, 2]), .integer(3)]) }
        #expect(error.code == SQLITE_RANGE)
        #expect(error.sql == sql)
        try db.execute(sql, [.blob([4, 5])])
        #expect(try db.rows("SELECT b FROM t") { row throws(SQLiteError) in try row.blob(0) } == [[4, 5]])
    }

    @Test func aNullOrAWrongTypeIsReportedAsCorruption() throws {
        let db = try SQLiteConnection(path: nil)
        let null = try #require(throws: SQLiteError.self) { try db.firstRow("SELECT NULL AS body") { row throws(SQLiteError) in try row.blob(0) } }
        #expect(null.primaryCode == SQLITE_CORRUPT)
        #expect(null.message == "column body holds NULL where a blob belongs")
        let text = try #require(throws: SQLiteError.self) { try db.firstRow("SELECT 'soon' AS fetched_at") { row throws(SQLiteError) in try row.double(0) } }
        #expect(text.isDamage)
        #expect(text.message == "column fetched_at holds a value of another type where a number belongs")
        #expect(try db.firstRow("SELECT 3") { row throws(SQLiteError) in try row.double(0) } == 3)  // a whole number is a number
    }

    @Test func aFileThatIsNotADatabaseIsRenamedAndRebuilt() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let junk = Data(String(repeating: "not a database; ", count: 256).utf8)
            try junk.write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: SQLiteError.self) {
                try SQLiteConnection(path: path).execute("SELECT * FROM sqlite_master")
            }
            #expect(error.primaryCode == SQLITE_NOTADB)
            #expect(error.isDamage)

            let store = try ResponseStore(path: path, maxBytes: 1 << 20)
            #expect(store.path == path)
            #expect(store.warnings.all.count == 1)
            let warning = try #require(store.warnings.all.first)
            #expect(warning.contains("is not a valid SQLite database (file is not a database); moved it to \(path).corrupt-"))
            let aside = files(in: folder, containing: "cache.sqlite.corrupt-")
            #expect(aside.count == 1)
            #expect(try Data(contentsOf: folder.appendingPathComponent(try #require(aside.first))) == junk)
            let key = CacheKey(origin: "http://127.0.0.1:8106", endpoint: .facts, query: [])
            try store.save(key, body: [1, 2, 3], fetchedAt: .now, etag: nil, lastModified: nil)
            #expect(try store.lookup(key)?.body == [1, 2, 3])
        }
    }

    @Test func twoConnectionsOnOneFileInWALBothSeeAWrite() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let a = try ResponseStore(path: path, maxBytes: 1 << 20)
            let b = try ResponseStore(path: path, maxBytes: 1 << 20)
            #expect(try SQLiteConnection(path: path).firstRow("PRAGMA journal_mode") { row throws(SQLiteError) in try row.text(0) } == "wal")
            let first = CacheKey(origin: "http://127.0.0.1:8106", endpoint: .breeds, query: [QueryItem(name: "page", value: "1")])
            let second = CacheKey(origin: "http://127.0.0.1:8106", endpoint: .breeds, query: [QueryItem(name: "page", value: "2")])
            try a.save(first, body: Array("one".utf8), fetchedAt: .now, etag: "\"1\"", lastModified: nil)
            #expect(try b.lookup(first)?.etag == "\"1\"")
            try b.save(second, body: Array("two".utf8), fetchedAt: .now, etag: nil, lastModified: "yesterday")
            #expect(try a.lookup(second)?.body == Array("two".utf8))
            #expect(try a.keys() == [first.description, second.description])
            #expect(a.warnings.all.isEmpty && b.warnings.all.isEmpty)
        }
    }

    // Kept statements (SQLiteConnection.withStatement): reused, released after each use.

    @Test func aKeptStatementHoldsNoReadLockBetweenUses() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("locks.sqlite").path
            let reader = try SQLiteConnection(path: path)
            try reader.execute("CREATE TABLE t (name TEXT NOT NULL)")
            try reader.execute("INSERT INTO t VALUES ('a'), ('b')")
            // firstRow stops on the first of two rows: a statement left there would keep its
            // read lock, and the other connection's write would fail as busy.
            for _ in 0..<2 {
                #expect(try reader.firstRow("SELECT name FROM t ORDER BY name") { row throws(SQLiteError) in try row.text(0) } == "a")
            }
            let writer = try SQLiteConnection(path: path)
            try writer.execute("INSERT INTO t VALUES (?)", [.text("c")])
            #expect(try reader.rows("SELECT name FROM t ORDER BY name") { row throws(SQLiteError) in try row.text(0) } == ["a", "b", "c"])
        }
    }

    @Test func theSameStatementNestedInItselfRunsTwice() throws {
        let db = try SQLiteConnection(path: nil)
        try db.execute("CREATE TABLE t (n INTEGER NOT NULL)")
        try db.execute("INSERT INTO t VALUES (1), (2)")
        let sql = "SELECT n FROM t ORDER BY n"
        let pairs = try db.rows(sql) { outer throws(SQLiteError) in
            (try outer.int64(0), try db.rows(sql) { inner throws(SQLiteError) in try inner.int64(0) })
        }
        #expect(pairs.map(\.0) == [1, 2])
        #expect(pairs.map(\.1) == [[1, 2], [1, 2]])
        // Bindings are dropped after each use: a parameter left unbound is NULL, not the last value.
        try db.execute("INSERT INTO t VALUES (?)", [.integer(3)])
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (?)", []) }
    }

    @Test func keptStatementsDoNotKeepTheConnectionAlive() throws {
        weak var closed: SQLiteConnection?
        do {
            let db = try SQLiteConnection(path: nil)
            closed = db
            try db.execute("CREATE TABLE t (n INTEGER)")
            try db.execute("INSERT INTO t VALUES (?)", [.integer(1)])
            #expect(try db.firstRow("SELECT n FROM t") { row throws(SQLiteError) in try row.int64(0) } == 1)
        }
        #expect(closed == nil)
    }
}
