/// The offline page cache: response bodies in SQLite, filed by ``CacheKey``, with their
/// fetch time and validators, capped in size with least-recently-used eviction.
///
/// In memory (a private database) unless given a path; a file is opened in WAL mode with a
/// busy timeout, so several processes may share it. Opening never fails: a corrupt or
/// foreign file is moved aside and rebuilt, and a file that cannot be used at all is
/// replaced by a memory cache — each time with a line in ``warnings``. A read or write that
/// fails, and pages evicted for the cap, are counted and summarized there too (``state(hits:)``).
/// Every write is one transaction, committed before the call that made it returns.
public final class ResponseStore: Sendable {
    /// Bytes a row costs beyond its body and key (timestamps, validators, b-tree overhead).
    static let rowOverhead = 64

    /// The file, or `nil` in memory (also when the file could not be used).
    public let path: String?
    /// The cap on the bytes the rows take (bodies, keys and ``rowOverhead`` each).
    public let maxBytes: Int
    /// What went wrong without failing a call.
    public let warnings: StoreWarnings
    /// Writes that failed and pages evicted, for ``state(hits:)``.
    private let tallies = Locked(StoreTallies())
    /// The one connection, used by one call at a time: a SQLite connection must not be
    /// shared between threads without a lock, and the cache's statements are short.
    private let connection: Locked<SQLiteConnection>
    /// Rows used since the last write (key → when), written with the next write or read of
    /// the order (``noteUse(_:)``), so that a hit writes nothing on the caller's path.
    private let pendingUses = Locked<[String: Double]>([:])
    /// The pages held decoded in memory in front of the rows (``DecodedPages``): a row
    /// evicted for the cap is dropped there too, so the cache never answers a page it
    /// counts as evicted.
    let decoded: DecodedPages

    /// Opens the cache: in memory when `path` is `nil`, else the file (its folder is created).
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` for an empty path or a cap below 1 byte;
    ///   nothing else (see the type's summary).
    public init(path: String?, maxBytes: Int, warnings: StoreWarnings = StoreWarnings()) throws(CatFactsError) {
        guard maxBytes > 0 else { throw .argument("cache_max_bytes \(maxBytes): the cache needs at least 1 byte") }
        if let path, path.isEmpty { throw .argument("cache_path is empty; leave it out for a memory-only cache") }
        self.maxBytes = maxBytes
        self.warnings = warnings
        decoded = DecodedPages(maxBytes: maxBytes)
        if let path {
            if let db = StoreFile.open(path: path, warnings: warnings) {
                self.path = path
                self.connection = Locked(db)
                return
            }
            warnings.add("the cache file \(path) cannot be used; caching in memory instead")
        }
        self.path = nil
        self.connection = Locked(StoreFile.openMemory())
    }

    /// The rows with the times they were last used and last fetched: their own, or the later
    /// ones `response_times` holds (noted apart, so that noting one never rewrites a row).
    private static let rowsWithTimes = "response AS r LEFT JOIN response_times AS t ON t.key = r.key"
    private static let lastUsedAt = "max(r.last_used_at, coalesce(t.last_used_at, 0))"
    private static let fetchedAt = "max(r.fetched_at, coalesce(t.fetched_at, 0))"

    /// The least-recently-used order, what eviction follows and ``keys()`` lists, in two
    /// parts, each `key, size` without the key bound to its parameter, the row filed first
    /// among equals: the rows whose times `response_times` holds (every row this library
    /// saves), by those, read from two indexes and never a row, so that a save stops at the
    /// first rows it evicts; then the rows an earlier library saved since, by their own times
    /// (read only when the first part is not enough: their uses are not known).
    static let leastRecentlyUsed = [
        """
        SELECT t.key, r.size FROM response_times AS t JOIN response AS r ON r.key = t.key
        WHERE t.last_used_at >= r.last_used_at AND t.key != ? ORDER BY t.last_used_at, r.rowid
        """,
        """
        SELECT r.key, r.size FROM response AS r WHERE r.key != ? AND NOT EXISTS (
            SELECT 1 FROM response_times AS t WHERE t.key = r.key AND t.last_used_at >= r.last_used_at)
        ORDER BY r.last_used_at, r.rowid
        """,
    ]

    /// The response filed under `key`, or `nil`.
    public func lookup(_ key: CacheKey) throws(CatFactsError) -> CachedResponse? {
        try run("read \(key)") { db throws(SQLiteError) in
            try db.firstRow("""
                SELECT r.key, r.body, \(Self.fetchedAt) AS fetched_at, \(Self.lastUsedAt) AS last_used_at, r.etag, r.last_modified
                FROM \(Self.rowsWithTimes) WHERE r.key = ?
                """, [.text(key.description)]) { row throws(SQLiteError) in
                CachedResponse(key: try row.text(0), body: try row.blob(1),
                               fetchedAt: Timestamp(timeIntervalSince1970: try row.double(2)),
                               lastUsedAt: Timestamp(timeIntervalSince1970: try row.double(3)),
                               etag: try row.optionalText(4), lastModified: try row.optionalText(5))
            }
        }
    }

    /// The response filed under `key` with its page as decoded, made by `restore` from the
    /// stored bytes (read in place) when the row has them in layout `format`; the body is not
    /// read then (the response's `body` is empty). `nil` when the row is missing, has no page
    /// in that layout, or `restore` refuses it (the caller decodes ``lookup(_:)``'s body).
    package func lookup<Value: Sendable>(_ key: CacheKey, decoded format: Int,
                               restore: (UnsafeRawBufferPointer) -> Value?) throws(CatFactsError) -> (CachedResponse, Value)? {
        try run("read \(key)") { db throws(SQLiteError) -> (CachedResponse, Value)? in
            try db.firstRow("""
                SELECT r.key, r.decoded, \(Self.fetchedAt) AS fetched_at, \(Self.lastUsedAt) AS last_used_at, r.etag,
                       r.last_modified
                FROM \(Self.rowsWithTimes) WHERE r.key = ? AND r.decoded_format = ?
                """, [.text(key.description), .integer(Int64(format))]) { row throws(SQLiteError) -> (CachedResponse, Value)? in
                guard let value = try row.withBlob(1, restore) ?? nil else { return nil }
                return (CachedResponse(key: try row.text(0), body: [], fetchedAt: Timestamp(timeIntervalSince1970: try row.double(2)),
                                       lastUsedAt: Timestamp(timeIntervalSince1970: try row.double(3)),
                                       etag: try row.optionalText(4), lastModified: try row.optionalText(5)), value)
            } ?? nil
        }
    }

    /// Files `body` under `key` (replacing what was there), then evicts least recently used
    /// rows until the cap holds. A body larger than the cap on its own is not stored.
    /// `decoded`: the page as decoded, in the layout `format` names, kept beside the body
    /// (``lookup(_:decoded:restore:)`` reads it back); its bytes count towards the cap.
    package func save(_ key: CacheKey, body: [UInt8], fetchedAt: Timestamp, etag: String?, lastModified: String?,
                      decoded: (format: Int, bytes: [UInt8])? = nil) throws(CatFactsError) {
        let text = key.description
        let size = body.count + (decoded?.bytes.count ?? 0) + text.utf8.count + Self.rowOverhead
        guard size <= maxBytes else {
            try remove(key)
            return
        }
        let now = Timestamp.now.timeIntervalSince1970
        let evicted = try run("write \(key)", writes: true) { db throws(SQLiteError) in
            try db.transaction { () throws(SQLiteError) in
                try db.execute("""
                    INSERT OR REPLACE INTO response (key, endpoint, body, size, fetched_at, last_used_at, etag, last_modified,
                                                     decoded, decoded_format)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(text), .text(key.endpoint), .blob(body), .integer(Int64(size)),
                          .real(fetchedAt.timeIntervalSince1970), .real(now), SQLiteValue(etag), SQLiteValue(lastModified),
                          decoded.map { .blob($0.bytes) } ?? .null, decoded.map { .integer(Int64($0.format)) } ?? .null])
                // Its times from now on (those noted for the row it replaced are not its own).
                try db.execute("INSERT OR REPLACE INTO response_times (key, last_used_at, fetched_at) VALUES (?, ?, NULL)",
                               [.text(text), .real(now)])
                return try evict(db, keeping: text)
            }
        }
        if evicted.entries > 0 { recordEviction(evicted) }
    }

    /// Notes that `key` was used now, for the least-recently-used order: written with the
    /// next write (a save, a removal, a touch) or before the order is read (``keys()``, and
    /// when the store is closed), not on the caller's path.
    package func noteUse(_ key: CacheKey) {
        let now = Timestamp.now.timeIntervalSince1970
        pendingUses.withLock { $0[key.description] = now }
    }

    /// Writes the uses noted by ``noteUse(_:)`` (on the connection, its lock held).
    private func writeUses(_ db: SQLiteConnection) throws(SQLiteError) {
        let uses = pendingUses.withLock { uses in
            defer { uses = [:] }
            return uses
        }
        guard !uses.isEmpty else { return }
        do throws(SQLiteError) {
            try db.transaction { () throws(SQLiteError) in
                for (key, time) in uses where try Self.isFiled(key, db) {
                    try db.execute(Self.noteUseSQL, [.text(key), .real(time)])
                }
            }
        } catch {
            // Kept for the next attempt (a busy file), unless a newer use replaced them.
            pendingUses.withLock { pending in pending.merge(uses) { newer, _ in newer } }
            throw error
        }
    }

    /// Notes a use of the row filed under the first parameter at the time in the second.
    ///
    /// One row of values, asked first whether the key is filed (``isFiled(_:_:)``), rather
    /// than `INSERT ... SELECT`: SQLite gives a statement that may write several rows a
    /// journal of its own, 64 kB of heap at each run.
    private static let noteUseSQL = """
        INSERT INTO response_times (key, last_used_at) VALUES (?, ?)
        ON CONFLICT (key) DO UPDATE SET last_used_at = max(last_used_at, excluded.last_used_at)
        """

    /// Whether a row is filed under `key` (read from the key's index, not the row).
    private static func isFiled(_ key: String, _ db: SQLiteConnection) throws(SQLiteError) -> Bool {
        try db.firstRow("SELECT 1 FROM response WHERE key = ?", [.text(key)]) { _ in true } ?? false
    }

    deinit {
        _ = try? connection.withLock { db throws(SQLiteError) in try writeUses(db) }
    }

    /// Marks `key` as used now and, when given, as fetched at `fetchedAt` (after a 304).
    package func touch(_ key: CacheKey, fetchedAt: Timestamp? = nil) throws(CatFactsError) {
        let now = Timestamp.now.timeIntervalSince1970
        let text = key.description
        try run("update \(key)", writes: true) { db throws(SQLiteError) in
            try db.transaction { () throws(SQLiteError) in
                guard try Self.isFiled(text, db) else { return }
                if let fetchedAt {
                    try db.execute("""
                        INSERT INTO response_times (key, last_used_at, fetched_at) VALUES (?, ?, ?)
                        ON CONFLICT (key) DO UPDATE SET last_used_at = max(last_used_at, excluded.last_used_at),
                                                        fetched_at = excluded.fetched_at
                        """, [.text(text), .real(now), .real(fetchedAt.timeIntervalSince1970)])
                } else {
                    try db.execute(Self.noteUseSQL, [.text(text), .real(now)])
                }
            }
        }
    }

    /// Removes what is filed under `key`.
    package func remove(_ key: CacheKey) throws(CatFactsError) {
        try run("remove \(key)", writes: true) { db throws(SQLiteError) in
            try db.transaction { () throws(SQLiteError) in
                try Self.delete(key.description, db)
            }
        }
    }

    /// Deletes the row filed under `key` and the times noted for it.
    private static func delete(_ key: String, _ db: SQLiteConnection) throws(SQLiteError) {
        try db.execute("DELETE FROM response WHERE key = ?", [.text(key)])
        try db.execute("DELETE FROM response_times WHERE key = ?", [.text(key)])
    }

    /// The keys stored, least recently used first.
    public func keys() throws(CatFactsError) -> [String] {
        try run("list the keys") { db throws(SQLiteError) in
            try writeUses(db)
            var keys: [String] = []
            for sql in Self.leastRecentlyUsed {
                // No key is empty: the parameter skips none.
                keys += try db.rows(sql, [.text("")]) { row throws(SQLiteError) in try row.text(0) }
            }
            return keys
        }
    }

    /// The bytes the rows take, as the cap counts them.
    public func totalBytes() throws(CatFactsError) -> Int {
        try run("sum the sizes") { db throws(SQLiteError) in try Self.totalBytes(db) }
    }

    private static func totalBytes(_ db: SQLiteConnection) throws(SQLiteError) -> Int {
        Int(try db.firstRow("SELECT coalesce(sum(size), 0) FROM response") { row throws(SQLiteError) in try row.int64(0) } ?? 0)
    }

    /// The pages stored and the bytes they take, in one read.
    private static func count(_ db: SQLiteConnection) throws(SQLiteError) -> (entries: Int, bytes: Int) {
        try db.firstRow("SELECT count(*), coalesce(sum(size), 0) FROM response") { row throws(SQLiteError) in
            (Int(try row.int64(0)), Int(try row.int64(1)))
        } ?? (0, 0)
    }

    /// Deletes least recently used rows, never `kept`, until the total is within the cap;
    /// how many it deleted and the bytes they took.
    private func evict(_ db: SQLiteConnection, keeping kept: String) throws(SQLiteError) -> (entries: Int, bytes: Int) {
        var total = try Self.totalBytes(db)
        let before = total
        guard total > maxBytes else { return (0, 0) }
        // Chosen first (reading keys and sizes only, never bodies, and only as many rows as
        // the cap needs), deleted after, once the reading statement is reset.
        var doomed: [String] = []
        for sql in Self.leastRecentlyUsed where total > maxBytes {
            try db.withStatement(sql) { candidates throws(SQLiteError) in
                try candidates.withBindings([.text(kept)]) { () throws(SQLiteError) in
                    while total > maxBytes, try candidates.step() {
                        doomed.append(try candidates.text(0))
                        total -= Int(try candidates.int64(1))
                    }
                }
            }
        }
        for key in doomed {
            try Self.delete(key, db)
            decoded.remove(key)
        }
        return (doomed.count, before - total)
    }

    /// Runs a cache operation whose failure must not fail the call: the answer is then `nil`,
    /// and the failure is among the ``warnings`` already (``run(_:writes:_:)`` records each).
    @discardableResult
    func warnOnFailure<T>(_ body: () throws(CatFactsError) -> T) -> T? {
        do {
            return try body()
        } catch {
            return nil
        }
    }

    /// Runs `body` on the connection, alone, turning its error into
    /// ``CatFactsError/internal(_:)`` naming `what`. A failure is recorded first: counted
    /// when `writes` says the operation writes, and summarized in ``warnings``, one line per
    /// kind of failure (a full disk fails every write: one line, not one per page).
    func run<T: Sendable>(_ what: String, writes: Bool = false,
                          _ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(CatFactsError) -> T {
        do {
            return try connection.withLock { db throws(SQLiteError) in
                if writes { try? writeUses(db) }  // a failure keeps them for the next write
                return try body(db)
            }
        } catch {
            let failure = "the cache could not \(what): \(error)"
            // Summarized under the tallies' lock, so a line never shows an older count than the last.
            tallies.withLock { tallies in
                let count = tallies.recordFailure(error, writing: writes)
                warnings.summarize(StoreTallies.failureWarning(failure, kind: error.kind, writing: writes, count: count),
                                   as: StoreTallies.failureSlot(error, writing: writes))
            }
            throw .internal(failure)
        }
    }

    /// Counts pages evicted for the cap, and says so in one line kept up to date.
    private func recordEviction(_ evicted: (entries: Int, bytes: Int)) {
        tallies.withLock { tallies in
            let total = tallies.recordEviction(entries: evicted.entries, bytes: evicted.bytes)
            warnings.summarize(StoreTallies.evictionWarning(entries: total.entries, bytes: total.bytes, maxBytes: maxBytes),
                               as: StoreTallies.evictionSlot)
        }
    }

    /// The cache as the metrics show it; `hits` are counted by the metrics. A store that
    /// cannot be read reports 0 pages and 0 bytes, and a warning says why.
    public func state(hits: Int) -> CacheState {
        let stored: (entries: Int, bytes: Int) = warnOnFailure { () throws(CatFactsError) in
            try run("count the pages") { db throws(SQLiteError) in try Self.count(db) }
        } ?? (0, 0)
        let tallies = tallies.withLock { $0 }
        return CacheState(path: path, bytes: stored.bytes, maxBytes: maxBytes, entries: stored.entries, hits: hits,
                          writesFailed: tallies.writesFailed, evictedEntries: tallies.evictedEntries,
                          evictedBytes: tallies.evictedBytes, warnings: warnings.all)
    }
}
