import CSQLite

/// A failure SQLite reported: its result code and message, and the statement that failed.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_PRIMARYKEY`.
    let code: Int32
    /// `sqlite3_errmsg` at the time, or what this library found wrong with a value.
    let message: String
    /// The SQL being run, when there was one.
    let sql: String?

    /// The primary result code, e.g. `SQLITE_CONSTRAINT`.
    var primaryCode: Int32 { code & 0xFF }

    /// Whether the file is not a database or a damaged one (as opposed to locked, read-only,
    /// missing…): what makes the cache move a file aside.
    var isDamage: Bool { primaryCode == SQLITE_NOTADB || primaryCode == SQLITE_CORRUPT }

    /// A value in the file that cannot be what the schema says (a NULL body, a text where a
    /// time belongs): only a damaged or tampered file holds one, so it counts as corruption.
    static func corrupt(_ message: String, sql: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: message, sql: sql)
    }

    var description: String {
        let text = "SQLite error \(code): \(message)"
        guard let sql else { return text }
        return "\(text) - while executing `\(sql)`"
    }
}
