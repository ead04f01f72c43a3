import Foundation

/// Where a cached response is filed: the endpoint's path and its query, sorted.
///
/// The base URL is not part of the key (a path prefix behind a proxy, or a moved server,
/// still finds the same pages), so one cache file holds one API's responses.
/// `/breeds?page=2&limit=10` and `/breeds?limit=10&page=2` are the same key:
/// `/breeds?limit=10&page=2`.
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The endpoint's path, e.g. `/breeds`.
    public let endpoint: String
    /// The query, `name=value` pairs sorted and joined with `&`; empty for none.
    public let query: String

    /// The key of a GET to `endpoint` with `items`.
    public init(endpoint: Endpoint, query items: [URLQueryItem]) {
        self.endpoint = endpoint.path
        self.query = items
            .map { ($0.name, $0.value ?? "") }
            .sorted { $0 < $1 }
            .map { "\(Self.escape($0.0))=\(Self.escape($0.1))" }
            .joined(separator: "&")
    }

    /// The key as stored: `/breeds?limit=10&page=2`, or the path alone.
    public var description: String { query.isEmpty ? endpoint : "\(endpoint)?\(query)" }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))) ?? text
    }
}
