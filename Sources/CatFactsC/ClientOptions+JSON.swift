import CatFactsKit

// cf_client_open's base URL and options JSON: each key, its type and range as ClientOption's
// table (the core) has them; the header lists the same and a test holds them to it.

extension ClientOptions {
    /// The keys of the options JSON: every option but the base URL, which is an argument.
    static let jsonKeys = Set(ClientOption.allCases.filter { $0 != .baseURL }.map(\.rawValue))

    /// Options from `cf_client_open`'s arguments.
    @_optimize(size)
    package init(baseURL: UnsafePointer<CChar>?, json: UnsafePointer<CChar>?) throws(CatFactsError) {
        var url: String?
        if let baseURL {
            let text = try CText.string(baseURL, what: "base_url")
            try CText.requireLength(text, what: "base_url", atMost: ClientOption.longestURL)
            try CText.requireNoControlOrSpace(text, what: "base_url")
            url = text
        }
        let options = try OptionsJSON(json, what: "client options", allowed: Self.jsonKeys)
        self.init(baseURL: url)
        func number(_ option: ClientOption) throws(CatFactsError) -> Int64? {
            try options.integer(option.rawValue, in: option.range ?? Int64.min...Int64.max).map(Int64.init)
        }
        func text(_ option: ClientOption) throws(CatFactsError) -> String? {
            guard let text = try options.string(option.rawValue) else { return nil }
            if let longest = option.longest { try CText.requireLength(text, what: option.rawValue, atMost: longest) }
            return text
        }
        if let ms = try number(.attemptTimeout) { limits.totalTimeout = .milliseconds(ms) }
        if let ms = try number(.connectTimeout) { limits.connectTimeout = .milliseconds(ms) }
        if let ms = try number(.deadline) { deadline = .milliseconds(ms) }
        if let bytes = try number(.maxBodyBytes) { limits.maxBodyBytes = Int(bytes) }
        if let retries = try number(.retries) { retry.retries = Int(retries) }
        if let fallback = try options.bool(ClientOption.offlineFallback.rawValue) { offlineFallback = fallback }
        if let agent = try text(.userAgent) { userAgent = agent }
        if let path = try text(.caFile) { caFile = path }
        if let proxy = try text(.proxy) { self.proxy = proxy }
        if let path = try text(.cachePath) {
            guard !path.isEmpty else { throw .argument("'cache_path' in client options is empty; leave it out for a memory-only cache") }
            cachePath = path
        }
        if let bytes = try number(.cacheMaxBytes) { cacheMaxBytes = Int(bytes) }
        if let ms = try number(.cacheTTL) { cacheTTL = .milliseconds(ms) }
        if let pages = try number(.readAhead) { readAhead = Int(pages) }
        if let count = try number(.maxConnections) { maxConnections = Int(count) }
        if let endpoint = try text(.otlpEndpoint) {
            try CText.requireNoControlOrSpace(endpoint, what: ClientOption.otlpEndpoint.rawValue)
            otlpEndpoint = endpoint
        }
    }
}
