#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    public init(origin: String, endpoint: Endpoint, query items: [URLQueryItem]) {
        self.origin = origin
        self.endpoint = endpoint.path
        self.query = items
            .map { ($0.name, $0.value ?? "") }
            .sorted { $0 < $1 }
            .map { "\(Self.escape($0.0))=\(Self.escape($0.1))" }
            .joined(separator: "&")
    }

    /// The key as stored: `https://catfact.ninja/breeds?limit=10&page=2`, or without the query.
    public var description: String { origin + (query.isEmpty ? endpoint : "\(endpoint)?\(query)") }

    /// The origin part of keys for a client of `baseURL`: scheme and host lower-cased, the
    /// port when the URL names one, the base path without a trailing `/`; no user or
    /// password, which must never be written to a cache file.
    public static func origin(of baseURL: URL) -> String {
        let scheme = (baseURL.scheme ?? "http").lowercased()
        var host = (baseURL.host ?? "").lowercased()
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        let port = baseURL.port.map { ":\($0)" } ?? ""
        var path = baseURL.path
        while path.hasSuffix("/") { path.removeLast() }
        return "\(scheme)://\(host)\(port)\(path)"
    }

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
