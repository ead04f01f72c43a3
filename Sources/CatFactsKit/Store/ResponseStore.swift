import Foundation
import GRDB

/// The offline page cache: response bodies in SQLite (through GRDB), filed by ``CacheKey``,
/// with their fetch time and validators, capped in size with least-recently-used eviction.
///
/// In memory (a private `DatabaseQueue`) unless given a path; a file is opened as a WAL
/// `DatabasePool` with a busy timeout, so several processes may share it. Opening never
/// fails: a corrupt or foreign file is moved aside and rebuilt, and a file that cannot be
/// used at all is replaced by a memory cache — each time with a line in ``warnings``.
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
    let writer: any DatabaseWriter

    /// Opens the cache: in memory when `path` is `nil`, else the file (its folder is created).
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` for an empty path or a cap below 1 byte;
    ///   nothing else (see the type's summary).
    public init(path: String?, maxBytes: Int, warnings: StoreWarnings = StoreWarnings()) throws(CatFactsError) {
        guard maxBytes > 0 else { throw .argument("cache_max_bytes \(maxBytes): the cache needs at least 1 byte") }
        if let path, path.isEmpty { throw .argument("cache_path is empty; leave it out for a memory-only cache") }
        self.maxBytes = maxBytes
        self.warnings = warnings
        if let path {
            if let writer = StoreFile.open(path: path, warnings: warnings) {
                self.path = path
                self.writer = writer
                return
            }
            warnings.add("the cache file \(path) cannot be used; caching in memory instead")
        }
        self.path = nil
        self.writer = StoreFile.openMemory()
    }

    /// The response filed under `key`, or `nil`.
    public func lookup(_ key: CacheKey) throws(CatFactsError) -> CachedResponse? {
        try run("read \(key)") {
            try writer.read { db in
                try Row.fetchOne(db, sql: """
                    SELECT key, body, fetched_at, last_used_at, etag, last_modified FROM response WHERE key = ?
                    """, arguments: [key.description]).map(Self.response(from:))
            }
        }
    }

    /// Files `body` under `key` (replacing what was there), then evicts least recently used
    /// rows until the cap holds. A body larger than the cap on its own is not stored.
    public func save(_ key: CacheKey, body: [UInt8], fetchedAt: Date, etag: String?, lastModified: String?) throws(CatFactsError) {
        let text = key.description
        let size = body.count + text.utf8.count + Self.rowOverhead
        guard size <= maxBytes else {
            try remove(key)
            return
        }
        let now = Date.now.timeIntervalSince1970
        try run("write \(key)") {
            try writer.write { db in
                try db.execute(sql: """
                    INSERT OR REPLACE INTO response (key, endpoint, body, size, fetched_at, last_used_at, etag, last_modified)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [text, key.endpoint, Data(body), size, fetchedAt.timeIntervalSince1970, now, etag, lastModified])
                try evict(db, keeping: text)
            }
        }
    }

    /// Marks `key` as used now and, when given, as fetched at `fetchedAt` (after a 304).
    public func touch(_ key: CacheKey, fetchedAt: Date? = nil) throws(CatFactsError) {
        let now = Date.now.timeIntervalSince1970
        try run("update \(key)") {
            try writer.write { db in
                if let fetchedAt {
                    try db.execute(sql: "UPDATE response SET last_used_at = ?, fetched_at = ? WHERE key = ?",
                                   arguments: [now, fetchedAt.timeIntervalSince1970, key.description])
                } else {
                    try db.execute(sql: "UPDATE response SET last_used_at = ? WHERE key = ?", arguments: [now, key.description])
                }
            }
        }
    }

    /// Removes what is filed under `key`.
    public func remove(_ key: CacheKey) throws(CatFactsError) {
        try run("remove \(key)") {
            try writer.write { db in try db.execute(sql: "DELETE FROM response WHERE key = ?", arguments: [key.description]) }
        }
    }

    /// The keys stored, least recently used first.
    public func keys() throws(CatFactsError) -> [String] {
        try run("list the keys") {
            try writer.read { db in try String.fetchAll(db, sql: "SELECT key FROM response ORDER BY last_used_at, rowid") }
        }
    }

    /// The bytes the rows take, as the cap counts them.
    public func totalBytes() throws(CatFactsError) -> Int {
        try run("sum the sizes") {
            try writer.read { db in try Int.fetchOne(db, sql: "SELECT coalesce(sum(size), 0) FROM response") ?? 0 }
        }
    }

    /// Deletes least recently used rows, never `kept`, until the total is within the cap.
    private func evict(_ db: Database, keeping kept: String) throws {
        var total = try Int.fetchOne(db.cachedStatement(sql: "SELECT coalesce(sum(size), 0) FROM response")) ?? 0
        guard total > maxBytes else { return }
        let rows = try Row.fetchCursor(db, sql: "SELECT key, size FROM response WHERE key != ? ORDER BY last_used_at, rowid",
                                       arguments: [kept])
        var doomed: [String] = []
        while total > maxBytes, let row = try rows.next() {
            doomed.append(row["key"])
            total -= row["size"] as Int
        }
        for key in doomed {
            try db.execute(sql: "DELETE FROM response WHERE key = ?", arguments: [key])
        }
    }

    private static func response(from row: Row) -> CachedResponse {
        let body: Data = row["body"]
        return CachedResponse(key: row["key"], body: [UInt8](body),
                              fetchedAt: Date(timeIntervalSince1970: row["fetched_at"]),
                              lastUsedAt: Date(timeIntervalSince1970: row["last_used_at"]),
                              etag: row["etag"], lastModified: row["last_modified"])
    }

    /// Runs a cache operation whose failure must not fail the call: the error becomes a line
    /// in ``warnings`` and the answer `nil`.
    @discardableResult
    func warnOnFailure<T>(_ body: () throws(CatFactsError) -> T) -> T? {
        do {
            return try body()
        } catch {
            warnings.add(error.description)
            return nil
        }
    }

    // Only statements without arguments go through GRDB's statement cache: a cached
    // statement keeps its last arguments (a body, a key) alive until it runs again, where
    // leak checkers cannot follow Swift's references to them.

    /// Runs a database operation, turning its error into ``CatFactsError/internal(_:)`` naming `what`.
    func run<T>(_ what: String, _ body: () throws -> T) throws(CatFactsError) -> T {
        do {
            return try body()
        } catch {
            throw .internal("the cache could not \(what): \(error)")
        }
    }
}
