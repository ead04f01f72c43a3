/// Which proxy, if any, a request goes through: curl's rules, decided here so that the
/// library can pass libcurl an explicit answer and name the proxy when it fails.
///
/// - A loopback host (`localhost`, `127.0.0.0/8`, `::1`) never goes through a proxy: a
///   corporate `http_proxy` must not break a local server or the mock.
/// - The client's `proxy` option, when set, decides: a URL, or `""` for none.
/// - Else the environment, as curl reads it: `http_proxy` for http (lower case only, as curl
///   does: `HTTP_PROXY` can be set by a CGI request's `Proxy:` header), `https_proxy` or
///   `HTTPS_PROXY` for https, then `all_proxy` or `ALL_PROXY`; `no_proxy` or `NO_PROXY` lists
///   hosts that go direct (`*` for all, a domain and its subdomains, an IP address, an IPv4
///   network in CIDR form).
public struct ProxyChoice: Sendable, Equatable {
    /// The proxy URL; `nil` to go direct.
    public let proxy: String?
    /// Where the choice came from, for messages: `"the proxy option"`, `"http_proxy"`, ...
    public let source: String?

    public static let direct = ProxyChoice(proxy: nil, source: nil)

    /// The environment variables the choice reads.
    public static let variables: Set<String> = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                                                "no_proxy", "NO_PROXY"]

    /// `url` without a password: `http://user:secret@proxy:3128` is `http://user:***@proxy:3128`.
    public static func redacted(_ url: String) -> String {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return url }
        let rest = url[url.index(colon, offsetBy: 3)...]
        let authority = rest.prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        let credentials = authority[..<at]
        guard let separator = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<separator]) + ":***" + String(url[at...])
    }

    /// The choice for a request to `host` over `scheme`.
    ///
    /// - Parameters:
    ///   - option: the client's `proxy` option: `nil` to read the environment, `""` for none.
    ///   - environment: the process environment (a parameter, for tests).
    public static func choose(scheme: String, host: String, option: String?,
                              environment: [String: String]) -> ProxyChoice {
        if isLoopback(host) { return .direct }
        if let option { return option.isEmpty ? .direct : ProxyChoice(proxy: option, source: "the proxy option") }
        let names = scheme.lowercased() == "https"
            ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
            : ["http_proxy", "all_proxy", "ALL_PROXY"]
        guard let name = names.first(where: { !(environment[$0] ?? "").isEmpty }),
              let proxy = environment[name] else { return .direct }
        let exceptions = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        if bypasses(host: host, noProxy: exceptions) { return .direct }
        return ProxyChoice(proxy: proxy, source: name)
    }

    /// `localhost` (and its subdomains), `127.0.0.0/8`, `::1`, with or without brackets.
    static func isLoopback(_ host: String) -> Bool {
        let host = unbracketed(host).lowercased()
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        return ipv4(host).map { $0 >> 24 == 127 } ?? false
    }

    /// Whether `noProxy` (curl's comma-separated list) sends `host` direct.
    static func bypasses(host: String, noProxy: String) -> Bool {
        let host = unbracketed(host).lowercased()
        for raw in noProxy.split(separator: ",") {
            let entry = unbracketed(raw.trimmed()).lowercased()
            if entry.isEmpty { continue }
            if entry == "*" { return true }
            if let slash = entry.firstIndex(of: "/") {
                guard let network = ipv4(String(entry[..<slash])), let bits = Int(entry[entry.index(after: slash)...]),
                      (0...32).contains(bits), let address = ipv4(host) else { continue }
                let mask: UInt32 = bits == 0 ? 0 : ~0 << (32 - bits)
                if address & mask == network & mask { return true }
                continue
            }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == domain || host.hasSuffix("." + domain) { return true }
        }
        return false
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// A dotted-quad IPv4 address as a number.
    private static func ipv4(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard part.count <= 3, let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }
}
