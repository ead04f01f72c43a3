/// Where a cached response is filed: the server (scheme, host, port and base path), the
/// endpoint's path and its query, sorted — the whole URI, as HTTP caches key responses, so
/// one cache file serves any number of servers without one answering for another.
/// `http://127.0.0.1:8106/breeds?page=2&limit=10` and `…/breeds?limit=10&page=2` are the
/// same key: `http://127.0.0.1:8106/breeds?limit=10&page=2`.
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The server: `scheme://host[:port][/base/path]`, scheme and host lower-cased, never
    /// with credentials (see ``origin(of:)``).
    public let origin: String
    /// The endpoint's path, e.g. `/breeds`.
    public let endpoint: String
    /// The query, `name=value` pairs sorted and joined with `&`; empty for none.
    public let query: String

    /// The key of a GET to `endpoint` with `items` on the server `origin` (``origin(of:)``).
    public init(origin: String, endpoint: Endpoint, query items: [QueryItem]) {
        self.origin = origin
        self.endpoint = endpoint.path
        self.query = items
            .map { ($0.name, $0.value) }
            .sorted { $0 < $1 }
            .map { "\(QueryItem.escape($0.0))=\(QueryItem.escape($0.1))" }
            .joined(separator: "&")
    }

    /// The key as stored: `https://catfact.ninja/breeds?limit=10&page=2`, or without the query.
    public var description: String { origin + (query.isEmpty ? endpoint : "\(endpoint)?\(query)") }

    /// The origin part of keys for a client of `baseURL`: scheme and host lower-cased, the
    /// port when the URL names one, the base path without a trailing `/`; no user or
    /// password, which must never be written to a cache file.
    public static func origin(of baseURL: WebAddress) -> String {
        let scheme = baseURL.scheme.lowercased()
        var host = (baseURL.host ?? "").lowercased()
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        let port = baseURL.port.map { ":\($0)" } ?? ""
        var path = baseURL.path
        while path.hasSuffix("/") { path.removeLast() }
        return "\(scheme)://\(host)\(port)\(path)"
    }
}
