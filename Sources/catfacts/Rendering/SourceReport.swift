import CatFactsKit

/// What `source` says, as JSON (`set output json`).
struct SourceReport: Encodable, Sendable {
    var server: String
    var origin: String
    /// The last request reached the server.
    var online: Bool
    /// `--offline`.
    var offlineMode: Bool
    /// Unreachable servers are answered from the bundled catalog.
    var fallback: Bool
    /// Where the last result came from; `null` before any.
    @WrittenAsNull var lastSource: Source?
    /// The cache file; `null` until the cache lands.
    @WrittenAsNull var cache: String?
    /// What went wrong with the cache, oldest first (the metrics' `cache.warnings`).
    var cacheWarnings: [String]

    enum CodingKeys: String, CodingKey {
        case server, origin, online, offlineMode = "offline_mode", fallback, lastSource = "last_source", cache,
             cacheWarnings = "cache_warnings"
    }
}
