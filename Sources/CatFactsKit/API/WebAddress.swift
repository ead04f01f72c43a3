/// A URL as the library uses it (RFC 3986's generic syntax): the base URL of a client, the
/// URL of each request, a collector's address. Parsed, never normalised: ``absoluteString`` is
/// the text it was made from.
///
/// The library's own type, not Foundation's `URL` (see ``Timestamp`` for why); its names
/// follow `URL`'s. libcurl parses the URL again when it sends a request: this type only
/// refuses what is not a URL and takes out the parts the library reads (the scheme for the
/// proxy, the host and port for the cache key and telemetry).
public struct WebAddress: Sendable, Hashable, CustomStringConvertible {
    /// The URL's text, as given.
    public let absoluteString: String
    /// The scheme as written (`http`, `HTTPS`).
    public let scheme: String
    /// The host without brackets (`catfact.ninja`, `127.0.0.1`, `::1`); `nil` when the URL
    /// has no authority (`mailto:x`); empty for `http://`.
    public let host: String?
    /// The port when the URL names one.
    public let port: Int?
    /// The path, percent-escapes kept (`""` or `/breeds`).
    public let path: String
    /// The text after `?`, escapes kept; `nil` without a `?`.
    public let query: String?
    /// The text after `#`; `nil` without a `#`.
    public let fragment: String?

    /// The URL `string` names, or `nil` when it is not one: no scheme, a byte a URL may not
    /// hold (a space, a control character, a non-ASCII byte, a `%` not followed by two hex
    /// digits), brackets outside an IPv6 host, a second `#`, a port that is not a number up
    /// to 65535.
    public init?(string: String) {
        let bytes = Array(string.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, Self.isAlpha(bytes[0]),
              bytes[1..<colon].allSatisfy({ Self.isAlpha($0) || Self.isDigit($0) || $0 == UInt8(ascii: "+")
                  || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }),
              Self.isURLText(bytes) else { return nil }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        var rest = colon + 1
        let end = bytes.count
        let fragmentStart = bytes[rest...].firstIndex(of: UInt8(ascii: "#")) ?? end
        // A fragment holds no `#` (RFC 3986, 3.5).
        guard fragmentStart == end || !bytes[(fragmentStart + 1)...].contains(UInt8(ascii: "#")) else { return nil }
        let queryStart = bytes[rest..<fragmentStart].firstIndex(of: UInt8(ascii: "?")) ?? fragmentStart
        var host: String?
        var port: Int?
        if queryStart - rest >= 2, bytes[rest] == UInt8(ascii: "/"), bytes[rest + 1] == UInt8(ascii: "/") {
            let authorityStart = rest + 2
            let authorityEnd = bytes[authorityStart..<queryStart].firstIndex(of: UInt8(ascii: "/")) ?? queryStart
            let hostStart = (bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@"))).map { $0 + 1 } ?? authorityStart
            var hostEnd = authorityEnd
            // Brackets belong around an IPv6 host and nowhere else.
            let isBracket = { (byte: UInt8) in byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") }
            if hostStart < authorityEnd, bytes[hostStart] == UInt8(ascii: "[") {
                guard let close = bytes[hostStart..<authorityEnd].firstIndex(of: UInt8(ascii: "]")),
                      !bytes[authorityStart..<hostStart].contains(where: isBracket),
                      !bytes[(hostStart + 1)..<close].contains(where: isBracket) else { return nil }
                host = text(hostStart + 1..<close)
                hostEnd = close + 1
                guard hostEnd == authorityEnd || bytes[hostEnd] == UInt8(ascii: ":") else { return nil }
            } else {
                guard !bytes[authorityStart..<authorityEnd].contains(where: isBracket) else { return nil }
                hostEnd = bytes[hostStart..<authorityEnd].firstIndex(of: UInt8(ascii: ":")) ?? authorityEnd
                host = text(hostStart..<hostEnd)
            }
            if hostEnd < authorityEnd {
                let digits = bytes[(hostEnd + 1)..<authorityEnd]
                guard digits.allSatisfy(Self.isDigit), digits.count <= 5 else { return nil }
                if !digits.isEmpty {
                    guard let number = Int(String(decoding: digits, as: UTF8.self)), number <= 65_535 else { return nil }
                    port = number
                }
            }
            rest = authorityEnd
        }
        guard !bytes[rest..<end].contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) else { return nil }
        absoluteString = string
        scheme = text(0..<colon)
        self.host = host
        self.port = port
        path = text(rest..<queryStart)
        query = queryStart < fragmentStart ? text(queryStart + 1..<fragmentStart) : nil
        fragment = fragmentStart < end ? text(fragmentStart + 1..<end) : nil
    }

    public var description: String { absoluteString }

    /// This URL (which has no query or fragment) with `path` appended and `query` after it:
    /// `http://h/v1` + `/breeds` + `[page=2]` is `http://h/v1/breeds?page=2`. The path's
    /// trailing slashes go (`http://h/v1/` gives `http://h/v1/breeds` too), never the
    /// authority's (`http://` gives `http:///breeds`).
    package func appending(path: String, query items: [QueryItem] = []) -> WebAddress {
        var text = absoluteString
        let trailingSlashes = self.path.utf8.reversed().prefix { $0 == UInt8(ascii: "/") }.count
        if query == nil, fragment == nil { text.removeLast(trailingSlashes) }
        text += path.hasPrefix("/") ? path : "/" + path
        if !items.isEmpty { text += "?" + QueryItem.encoded(items) }
        // Parts of a valid URL and escaped items make a valid URL.
        return WebAddress(string: text) ?? self
    }

    private static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }

    /// The bytes RFC 3986 lets a URL hold besides letters, digits and `%XX`: unreserved,
    /// general and sub-delimiters.
    private static let allowed = Set("-._~:/?#[]@!$&'()*+,;=".utf8)

    /// Whether every byte is one a URL may hold, and every `%` starts an escape.
    private static func isURLText(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isAlpha(byte) || isDigit(byte) || allowed.contains(byte) else { return false }
            index += 1
        }
        return true
    }
}

/// One `name=value` pair of a URL's query.
public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The bytes a name or value keeps as they are: those a URL query allows (RFC 3986),
    /// less the three that would change its meaning: `&`, `=` and `+`.
    private static let unescaped = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@/?".utf8)

    /// `items` as a query's text, in their order: `page=2&limit=10`.
    package static func encoded(_ items: [QueryItem]) -> String {
        items.map { "\(escape($0.name))=\(escape($0.value))" }.joined(separator: "&")
    }

    /// `text` with every other UTF-8 byte as `%XX` (upper-case hex), as Foundation's
    /// `addingPercentEncoding(withAllowedCharacters:)` writes it with that set, so cache keys
    /// filed by earlier versions are found again.
    package static func escape(_ text: String) -> String {
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
