import CSQLite

/// One SQLite connection, closed when it goes away.
///
/// Not thread-safe: it is opened in multi-thread mode (`SQLITE_OPEN_NOMUTEX`), so SQLite
/// takes no locks of the connection's, and its owner lets one thread at a time use it (see
/// ``ResponseStore``). Each use holds ``SQLiteForkGate`` (opening, closing, a statement from
/// its preparing to its release, a transaction whole). Errors carry SQLite's result code and
/// message (``SQLiteError``).
final class SQLiteConnection {
    let handle: OpaquePointer
    /// Statements prepared once and kept, by their SQL (``withStatement(_:_:)``): the cache
    /// runs the same few statements for every page, and preparing them again each time was
    /// half of what storing a page cost (a sweep of 1000-breed pages, cache on against off).
    private var kept: [String: SQLiteStatement] = [:]
    /// The most statements kept; others are prepared for each use.
    static let maxKeptStatements = 32

    /// Opens the database at `path` (created if missing, unless `readOnly`), or a private
    /// in-memory one for `nil`. A connection that finds the file locked by another waits up
    /// to `busyTimeout` before failing with `SQLITE_BUSY`.
    init(path: String?, readOnly: Bool = false, busyTimeout: Duration = .zero) throws(SQLiteError) {
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        handle = try SQLiteForkGate.around { () throws(SQLiteError) -> OpaquePointer in
            var handle: OpaquePointer?
            let code = sqlite3_open_v2(path ?? ":memory:", &handle, flags, nil)
            guard code == SQLITE_OK, let handle else {
                // A handle usually comes back even on failure: it holds the message, then is closed.
                let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
                let systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
                sqlite3_close_v2(handle)
                throw SQLiteError(code: code, message: message, sql: nil, systemErrno: systemErrno)
            }
            // Result codes say which constraint or which I/O step failed, not just that one did.
            sqlite3_extended_result_codes(handle, 1)
            let (seconds, attoseconds) = busyTimeout.components
            sqlite3_busy_timeout(handle, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            return handle
        }
    }

    deinit {
        SQLiteForkGate.around {
            // Its statements first (every statement is made and kept by withStatement).
            kept.removeAll()
            sqlite3_close_v2(handle)
        }
    }

    /// Runs `body` with `sql` prepared: the kept statement for it (prepared on its first use),
    /// released when `body` returns; `body` must not keep it (it does not hold the
    /// connection). A statement in use is taken out of the keeping, so a nested use of the
    /// same SQL prepares its own.
    func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try SQLiteForkGate.around { () throws(SQLiteError) -> T in
            let statement: SQLiteStatement
            if let taken = kept.removeValue(forKey: sql) {
                statement = taken
            } else {
                statement = try SQLiteStatement(sql, on: self)
            }
            defer {
                statement.release()
                if kept.count < Self.maxKeptStatements { kept[sql] = statement }
            }
            return try body(statement)
        }
    }

    /// Rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `sql`, which may hold several statements, none with parameters (schema, pragmas).
    func execute(_ sql: String) throws(SQLiteError) {
        let code = SQLiteForkGate.around { sqlite3_exec(handle, sql, nil, nil, nil) }
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    /// Runs one statement with `values` bound to its parameters.
    func execute(_ sql: String, _ values: [SQLiteValue]) throws(SQLiteError) {
        try withStatement(sql) { statement throws(SQLiteError) in try statement.run(values) }
    }

    /// The rows of one statement with `values` bound, each made by `read` from the statement
    /// standing on it.
    func rows<Row>(_ sql: String, _ values: [SQLiteValue] = [],
                   _ read: (SQLiteStatement) throws(SQLiteError) -> Row) throws(SQLiteError) -> [Row] {
        try withStatement(sql) { statement throws(SQLiteError) in
            try statement.withBindings(values) { () throws(SQLiteError) -> [Row] in
                var rows: [Row] = []
                while try statement.step() {
                    rows.append(try read(statement))
                }
                return rows
            }
        }
    }

    /// The first row of one statement, made by `read`, or `nil` when there is none.
    func firstRow<Row>(_ sql: String, _ values: [SQLiteValue] = [],
                       _ read: (SQLiteStatement) throws(SQLiteError) -> Row) throws(SQLiteError) -> Row? {
        try withStatement(sql) { statement throws(SQLiteError) in
            try statement.withBindings(values) { () throws(SQLiteError) -> Row? in
                try statement.step() ? read(statement) : nil
            }
        }
    }

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`,
    /// waiting out another process's write as the busy timeout allows): committed when
    /// `body` returns, rolled back when it or the commit throws.
    func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try SQLiteForkGate.around { () throws(SQLiteError) -> T in
            try execute("BEGIN IMMEDIATE", [])
            do throws(SQLiteError) {
                let result = try body()
                try execute("COMMIT", [])
                return result
            } catch {
                // SQLite may have rolled back already (after some I/O errors); then there is
                // nothing left to undo and the first error is the one worth reporting.
                if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
                throw error
            }
        }
    }

    /// The error for `code`, with the connection's message and the `errno` of its last
    /// failed system call.
    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql,
                    systemErrno: sqlite3_system_errno(handle))
    }
}
