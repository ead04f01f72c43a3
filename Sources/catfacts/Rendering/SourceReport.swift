import CatFactsKit

/// What `source` says, as JSON (`set output json`).
struct SourceReport: Encodable {
    var server: String
    var origin: String
    /// The last request reached the server.
    var online: Bool
    /// `--offline`.
    var offlineMode: Bool
    /// Unreachable servers are answered from the bundled catalog.
    var fallback: Bool
    /// Where the last result came from; `null` before any.
    var lastSource: Source?
    /// The cache file; `null` until the cache lands.
    var cache: String?
    /// What went wrong with the cache, oldest first (the metrics' `cache.warnings`).
    var cacheWarnings: [String]

    enum CodingKeys: String, CodingKey {
        case server, origin, online, offlineMode = "offline_mode", fallback, lastSource = "last_source", cache,
             cacheWarnings = "cache_warnings"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(server, forKey: .server)
        try c.encode(origin, forKey: .origin)
        try c.encode(online, forKey: .online)
        try c.encode(offlineMode, forKey: .offlineMode)
        try c.encode(fallback, forKey: .fallback)
        // Written as null rather than left out, so every key is always there.
        try c.encode(lastSource, forKey: .lastSource)
        try c.encode(cache, forKey: .cache)
        try c.encode(cacheWarnings, forKey: .cacheWarnings)
    }
}
