import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure SQLite reported: its result code and message, and the statement that failed.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_PRIMARYKEY`.
    let code: Int32
    /// `sqlite3_errmsg` at the time, or what this library found wrong with a value.
    let message: String
    /// The SQL being run, when there was one.
    let sql: String?
    /// The `errno` of the system call behind a file failure (`ENOSPC`, `EROFS`…), 0 when
    /// there was none: SQLite's own message ("disk I/O error") does not say which.
    var systemErrno: Int32 = 0

    /// The primary result code, e.g. `SQLITE_CONSTRAINT`.
    var primaryCode: Int32 { code & 0xFF }

    /// Whether the file is not a database or a damaged one (as opposed to locked, read-only,
    /// missing…): what makes the cache move a file aside.
    var isDamage: Bool { primaryCode == SQLITE_NOTADB || primaryCode == SQLITE_CORRUPT }

    /// Whether the failure is the file's (space, permissions, I/O), where `systemErrno`
    /// says more; for the others an `errno` left by an earlier call would mislead.
    private var isFileFailure: Bool {
        [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM].contains(primaryCode)
    }

    /// The failure in the words a host acts on ("disk full", "read-only"), from the result
    /// code and the system's `errno`; `nil` for the others (a constraint, a missing table),
    /// which the message says well enough.
    var kind: String? {
        let errno = isFileFailure ? systemErrno : 0
        if primaryCode == SQLITE_FULL || errno == ENOSPC || errno == EDQUOT { return "disk full" }
        if primaryCode == SQLITE_READONLY || errno == EROFS { return "read-only" }
        if primaryCode == SQLITE_PERM || errno == EACCES || errno == EPERM { return "permission denied" }
        switch primaryCode {
        case SQLITE_IOERR: return "I/O error"
        case SQLITE_CANTOPEN: return "cannot open"
        case SQLITE_BUSY, SQLITE_LOCKED: return "locked"
        case SQLITE_CORRUPT, SQLITE_NOTADB: return "damaged"
        case SQLITE_NOMEM: return "out of memory"
        default: return nil
        }
    }

    /// A value in the file that cannot be what the schema says (a NULL body, a text where a
    /// time belongs): only a damaged or tampered file holds one, so it counts as corruption.
    static func corrupt(_ message: String, sql: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: message, sql: sql)
    }

    /// What to do about it, by ``kind``: the cache holds only copies of pages, so deleting
    /// or moving it is always safe; `cache_path` and `cache_max_bytes` are the options' names.
    var remedy: String {
        switch kind {
        case "disk full": "free space on its disk, or lower cache_max_bytes"
        case "read-only": "make the file and its folder writable, or set cache_path to a writable place"
        case "permission denied": "give this user access to the file and its folder, or set cache_path elsewhere"
        case "I/O error": "check the disk (dmesg), or set cache_path elsewhere"
        case "cannot open": "check that its folder exists and is writable, or set cache_path elsewhere"
        case "locked": "another process keeps it locked; let it finish, or give this program a cache_path of its own"
        case "damaged": "delete the file (it holds only copies of pages); a new one is made"
        case "out of memory": "free memory, or lower cache_max_bytes"
        default: "delete the cache file (it holds only copies of pages), or set cache_path elsewhere"
        }
    }

    var description: String {
        var text = "SQLite error \(code): \(message)"
        if isFileFailure, systemErrno != 0 { text += " (\(String(cString: strerror(systemErrno))))" }
        if let sql { text += " - while executing `\(sql)`" }
        return "\(text); \(remedy)"
    }
}
