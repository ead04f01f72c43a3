import CSQLite

/// One prepared statement: bound, stepped through its rows, and finalized when it goes away.
///
/// The column readers check the stored type: a cache file is read back as written, so a
/// NULL or a value of another type means a damaged file and is thrown as
/// ``SQLiteError/corrupt(_:sql:)``, never trapped on.
final class SQLiteStatement {
    let sql: String
    /// Not held: statements live within ``SQLiteConnection/withStatement(_:_:)``, and the
    /// connection, which keeps them, finalizes them before it closes.
    private unowned let connection: SQLiteConnection
    private let handle: OpaquePointer

    /// Prepares `sql` on `connection` (through ``SQLiteConnection/withStatement(_:_:)``).
    init(_ sql: String, on connection: SQLiteConnection) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v2(connection.handle, sql, -1, &handle, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            throw connection.error(code, sql: sql)
        }
        self.sql = sql
        self.connection = connection
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement, binds `values` to its parameters in order and runs `body` while
    /// they are bound; the bindings are dropped before it returns. A blob is bound where it
    /// lies (`SQLITE_STATIC`), held for as long as `body` runs, rather than copied by SQLite:
    /// a saved page's body and decoded bytes are 64 to 256 kB, and the copies took a block of
    /// malloc's that size for each save.
    func withBindings<T>(_ values: [SQLiteValue], _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        release()
        return try bind(values, from: 0, then: body)
    }

    /// Binds `values[offset...]`, then runs `body`, within the closures that hold the blobs;
    /// the bindings are dropped once on every way out (``release()``), while the blobs are
    /// still held, so SQLite never keeps a stale address.
    private func bind<T>(_ values: [SQLiteValue], from offset: Int, then body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        guard offset < values.count else {
            defer { release() }
            return try body()
        }
        let index = Int32(offset + 1)
        let code: Int32
        switch values[offset] {
        case .integer(let number):
            code = sqlite3_bind_int64(handle, index, number)
        case .real(let number):
            code = sqlite3_bind_double(handle, index, number)
        case .text(let text):
            // With its length in bytes: a NUL inside the text does not end it. Copied: keys
            // and names are short, and the C string is a temporary.
            code = text.utf8CString.withUnsafeBufferPointer {
                sqlite3_bind_text64(handle, index, $0.baseAddress, UInt64($0.count - 1), catfacts_sqlite_transient(),
                                    UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes) where bytes.isEmpty:
            // An empty array may have no address, and a NULL address binds NULL.
            code = sqlite3_bind_zeroblob(handle, index, 0)
        case .blob(let bytes):
            let outcome = bytes.withUnsafeBytes { raw -> Result<T, SQLiteError> in
                // A nil destructor is SQLITE_STATIC: SQLite reads the bytes where they are.
                let code = sqlite3_bind_blob64(handle, index, raw.baseAddress, UInt64(raw.count), nil)
                guard code == SQLITE_OK else { return .failure(failed(code)) }
                return Result { () throws(SQLiteError) -> T in try bind(values, from: offset + 1, then: body) }
            }
            return try outcome.get()
        case .null:
            code = sqlite3_bind_null(handle, index)
        }
        guard code == SQLITE_OK else { throw failed(code) }
        return try bind(values, from: offset + 1, then: body)
    }

    /// The error for a binding that failed, with the bindings made so far dropped.
    private func failed(_ code: Int32) -> SQLiteError {
        let error = connection.error(code, sql: sql)
        release()
        return error
    }

    /// Ends the statement's run and drops its bindings (text is a copy; a blob points into
    /// its caller's bytes), so a kept statement holds neither a read transaction, nor memory,
    /// nor an address between uses.
    func release() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Moves to the next row: `true` when there is one, `false` when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.error(code, sql: sql)
        }
    }

    /// Runs the statement to its end with `values`, ignoring any rows.
    func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try withBindings(values) { () throws(SQLiteError) in
            while try step() {}
        }
    }

    // Column readers, for the row `step()` moved to.

    /// An integer column.
    func int64(_ column: Int32) throws(SQLiteError) -> Int64 {
        try expect(column, SQLITE_INTEGER, "an integer")
        return sqlite3_column_int64(handle, column)
    }

    /// A number column, floating-point or integer (an expression such as `sum(…)` over
    /// whole numbers gives an integer), as a `Double`.
    func double(_ column: Int32) throws(SQLiteError) -> Double {
        if sqlite3_column_type(handle, column) != SQLITE_INTEGER {
            try expect(column, SQLITE_FLOAT, "a number")
        }
        return sqlite3_column_double(handle, column)
    }

    /// A text column, decoded as UTF-8.
    func text(_ column: Int32) throws(SQLiteError) -> String {
        try expect(column, SQLITE_TEXT, "text")
        // The pointer first, then the length: that order leaves the text as stored.
        guard let bytes = sqlite3_column_text(handle, column) else { throw outOfMemory() }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// A text column that may be NULL.
    func optionalText(_ column: Int32) throws(SQLiteError) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : try text(column)
    }

    /// A blob column's bytes.
    func blob(_ column: Int32) throws(SQLiteError) -> [UInt8] {
        try expect(column, SQLITE_BLOB, "a blob")
        let bytes = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0 else { return [] }  // an empty blob has no address
        guard let bytes else { throw outOfMemory() }
        return [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// `body` over a blob column's bytes where SQLite holds them (no copy; valid only inside
    /// `body`); NULL or another type is `nil`.
    func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> T) throws(SQLiteError) -> T? {
        guard sqlite3_column_type(handle, column) == SQLITE_BLOB else { return nil }
        let bytes = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let bytes else { throw outOfMemory() }
        return body(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// What a column pointer of NULL for a non-empty value means: SQLite ran out of memory.
    private func outOfMemory() -> SQLiteError {
        connection.error(sqlite3_errcode(connection.handle), sql: sql)
    }

    private func expect(_ column: Int32, _ type: Int32, _ what: String) throws(SQLiteError) {
        let found = sqlite3_column_type(handle, column)
        guard found != type else { return }
        let name = sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "\(column)"
        let stored = found == SQLITE_NULL ? "NULL" : "a value of another type"
        throw .corrupt("column \(name) holds \(stored) where \(what) belongs", sql: sql)
    }
}
