import CSQLite
import Testing
@testable import CatFactsKit
#if canImport(Glibc)
import Glibc
#endif

/// Every SQLite failure the cache can meet says its cause (SQLite's code and text, the
/// system's errno for a file) and what to do about it.
struct SQLiteErrorTests {
    /// code, errno, and what the description must hold.
    static let table: [(Int32, Int32, [String])] = [
        (SQLITE_FULL, 0, ["database or disk is full", "free space on its disk, or lower cache_max_bytes"]),
        (SQLITE_IOERR | (4 << 8), ENOSPC, ["No space left on device", "free space on its disk"]),
        (SQLITE_READONLY, 0, ["attempt to write a readonly database", "make the file and its folder writable"]),
        (SQLITE_IOERR, EROFS, ["Read-only file system", "set cache_path to a writable place"]),
        (SQLITE_PERM, 0, ["access permission denied", "give this user access"]),
        (SQLITE_CANTOPEN, EACCES, ["Permission denied", "give this user access"]),
        (SQLITE_IOERR, EIO, ["disk I/O error", "check the disk (dmesg)"]),
        (SQLITE_CANTOPEN, 0, ["unable to open database file", "check that its folder exists and is writable"]),
        (SQLITE_BUSY, 0, ["database is locked", "give this program a cache_path of its own"]),
        (SQLITE_LOCKED, 0, ["database table is locked", "give this program a cache_path of its own"]),
        (SQLITE_CORRUPT, 0, ["database disk image is malformed", "delete the file (it holds only copies of pages)"]),
        (SQLITE_NOTADB, 0, ["file is not a database", "delete the file"]),
        (SQLITE_NOMEM, 0, ["out of memory", "free memory"]),
        (SQLITE_ERROR, 0, ["SQL logic error", "delete the cache file (it holds only copies of pages), or set cache_path elsewhere"]),
        (SQLITE_CONSTRAINT, 0, ["constraint failed", "delete the cache file"]),
    ]

    @Test(arguments: table.indices)
    func eachFailureNamesItsCauseAndRemedy(row: Int) {
        let (code, errno, expected) = Self.table[row]
        var error = SQLiteError(code: code, message: String(cString: sqlite3_errstr(code)), sql: "SELECT 1")
        error.systemErrno = errno
        for phrase in expected { #expect(error.description.contains(phrase), "\(error.description)") }
        #expect(error.description.hasSuffix(error.remedy))
    }
}
