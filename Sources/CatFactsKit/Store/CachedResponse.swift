/// A response body as the cache holds it, with when it was fetched and its validators.
public struct CachedResponse: Sendable, Equatable {
    /// Where it is filed.
    public var key: String
    /// The body exactly as the server sent it.
    public var body: [UInt8]
    /// When it was last fetched or revalidated (a 304 refreshes it).
    public var fetchedAt: Timestamp
    /// When a call last used it (least recently used rows are evicted first).
    public var lastUsedAt: Timestamp
    /// The server's `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// The server's `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?

    /// Creates a cached response.
    public init(key: String, body: [UInt8], fetchedAt: Timestamp, lastUsedAt: Timestamp, etag: String?, lastModified: String?) {
        self.key = key
        self.body = body
        self.fetchedAt = fetchedAt
        self.lastUsedAt = lastUsedAt
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether it can be revalidated (it carries a validator).
    public var hasValidators: Bool { etag != nil || lastModified != nil }

    /// The conditional request headers its validators call for.
    var conditionalHeaders: [String: String] {
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }
}
