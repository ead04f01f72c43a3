import CatFactsKit

// cf_client_open's base URL and options (their ranges are the header's, next to each key).

extension ClientOptions {
    static let jsonKeys: Set<String> = ["timeout_ms", "connect_timeout_ms", "retries", "cache_path", "cache_max_bytes",
                                        "cache_ttl_ms", "offline_fallback", "user_agent", "max_body_bytes", "proxy", "deadline_ms",
                                        "read_ahead", "max_connections", "otlp_endpoint", "ca_file"]

    /// The longest base URL or proxy URL accepted, in bytes: what servers and proxies take.
    static let longestURL = 2048
    /// The longest ca_file accepted, in bytes: the system's PATH_MAX.
    static let longestPath = 4096
    /// The longest User-Agent accepted, in bytes: a header line servers take.
    static let longestUserAgent = 1024

    /// Options from `cf_client_open`'s arguments.
    @_optimize(size)
    package init(baseURL: UnsafePointer<CChar>?, json: UnsafePointer<CChar>?) throws(CatFactsError) {
        var url: String?
        if let baseURL {
            let text = try CText.string(baseURL, what: "base_url")
            try CText.requireLength(text, what: "base_url", atMost: Self.longestURL)
            try CText.requireNoControlOrSpace(text, what: "base_url")
            url = text
        }
        let options = try OptionsJSON(json, what: "client options", allowed: Self.jsonKeys)
        self.init(baseURL: url)
        if let ms = try options.integer("timeout_ms", in: 1...OptionsJSON.day) { limits.totalTimeout = .milliseconds(ms) }
        if let ms = try options.integer("connect_timeout_ms", in: 1...OptionsJSON.day) { limits.connectTimeout = .milliseconds(ms) }
        if let ms = try options.integer("deadline_ms", in: 1...OptionsJSON.day) { deadline = .milliseconds(ms) }
        if let bytes = try options.integer("max_body_bytes", in: 1...(1 << 31)) { limits.maxBodyBytes = bytes }
        if let retries = try options.integer("retries", in: 0...100) { retry.retries = retries }
        if let fallback = try options.bool("offline_fallback") { offlineFallback = fallback }
        if let agent = try options.string("user_agent") {
            try CText.requireLength(agent, what: "user_agent", atMost: Self.longestUserAgent)
            userAgent = agent
        }
        if let proxy = try options.string("proxy") {
            try CText.requireLength(proxy, what: "proxy", atMost: Self.longestURL)
            self.proxy = proxy
        }
        if let path = try options.string("ca_file") {
            try CText.requireLength(path, what: "ca_file", atMost: Self.longestPath)
            caFile = path
        }
        if let path = try options.string("cache_path") {
            guard !path.isEmpty else { throw .argument("'cache_path' in client options is empty; leave it out for a memory-only cache") }
            cachePath = path
        }
        if let bytes = try options.integer("cache_max_bytes", in: 0...(1 << 40)) { cacheMaxBytes = bytes }
        if let ms = try options.integer("cache_ttl_ms", in: 0...(365 * OptionsJSON.day)) { cacheTTL = .milliseconds(ms) }
        if let pages = try options.integer("read_ahead", in: 0...Int64(ClientOptions.maxReadAhead)) { readAhead = Int(pages) }
        if let count = try options.integer("max_connections", in: 1...Int64(ClientOptions.maxConnectionsLimit)) { maxConnections = count }
        if let endpoint = try options.string("otlp_endpoint") {
            try CText.requireLength(endpoint, what: "otlp_endpoint", atMost: Self.longestURL)
            try CText.requireNoControlOrSpace(endpoint, what: "otlp_endpoint")
            otlpEndpoint = endpoint
        }
    }
}
