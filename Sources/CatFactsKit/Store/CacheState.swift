/// The cache as a host sees it (`"cache"` in `cf_metrics`): where it lives, how full it is,
/// and what went wrong with it without failing a call — so a host whose cache stays empty
/// can learn why.
public struct CacheState: Sendable, Equatable, Encodable {
    /// The file, or `nil` for a memory cache (also when the file could not be used: a
    /// warning says why).
    @WrittenAsNull public var path: String?
    /// The bytes the pages take, as the cap counts them (bodies, keys and a row overhead).
    public var bytes: Int
    /// The cap on ``bytes`` (`cache_max_bytes`).
    public var maxBytes: Int
    /// The pages stored.
    public var entries: Int
    /// Calls answered from the cache: the endpoints' cache hits, summed.
    public var hits: Int
    /// Writes (a page stored, touched or removed, a prefix denied) that failed.
    public var writesFailed: Int
    /// Pages evicted, least recently used first, to keep ``bytes`` within ``maxBytes``.
    public var evictedEntries: Int
    /// The bytes those pages took.
    public var evictedBytes: Int
    /// What went wrong, oldest first (``StoreWarnings``).
    public var warnings: [String]

    /// Creates a state.
    public init(path: String?, bytes: Int, maxBytes: Int, entries: Int, hits: Int, writesFailed: Int,
                evictedEntries: Int, evictedBytes: Int, warnings: [String]) {
        self.path = path
        self.bytes = bytes
        self.maxBytes = maxBytes
        self.entries = entries
        self.hits = hits
        self.writesFailed = writesFailed
        self.evictedEntries = evictedEntries
        self.evictedBytes = evictedBytes
        self.warnings = warnings
    }

    enum CodingKeys: String, CodingKey {
        case path, bytes, maxBytes = "max_bytes", entries, hits, writesFailed = "writes_failed",
             evictedEntries = "evicted_entries", evictedBytes = "evicted_bytes", warnings
    }
}
