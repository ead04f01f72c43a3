#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// The bytes a name or value keeps as they are: those a URL query allows
    /// (RFC 3986), less the three that would change its meaning: `&`, `=` and `+`.
    private static let unescaped = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@/?".utf8)

    /// `text` with every other UTF-8 byte as `%XX` (upper-case hex), as Foundation's
    /// `addingPercentEncoding(withAllowedCharacters:)` writes it with that set, so keys
    /// filed by earlier versions are found again.
    private static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if unescaped.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
