#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a ``CatFactsClient`` talks to the server.
public struct ClientOptions: Sendable, Equatable {
    /// The real service.
    public static let defaultBaseURL = "https://catfact.ninja"

    /// Where the API lives: http or https, optionally with a path prefix
    /// (`http://proxy:8080/catfacts`); endpoint paths are appended to it.
    public var baseURL: String = ClientOptions.defaultBaseURL
    /// Timeouts and the body size cap, for each attempt.
    public var limits = TransportLimits()
    /// The most a whole call may take — its attempts, the waits between them, Retry-After
    /// waits and the pages of a walk — after which it fails with
    /// ``CatFactsError/deadlinePassed(milliseconds:attempts:reason:url:)`` (`CF_ERR_TIMEOUT`).
    /// `nil`: no bound but each attempt's.
    public var deadline: Duration? = nil
    /// Sent as `User-Agent` with every request.
    public var userAgent: String = LibraryVersion.userAgent
    /// The proxy for every request: a URL (`http://host:3128`, `socks5h://host:1080`), or
    /// `""` for none. `nil` (the default) reads `http_proxy`, `https_proxy`, `all_proxy` and
    /// `no_proxy` from the environment as curl does. Loopback hosts never use a proxy.
    public var proxy: String? = nil
    /// A PEM file of CA certificates that https servers' certificates are checked against,
    /// instead of the system's: a company proxy's or an internal mirror's own CA. `nil` (the
    /// default) reads `CURL_CA_BUNDLE`, else `SSL_CERT_FILE` and `SSL_CERT_DIR`, from the
    /// environment, as curl does; else the system's bundle (the ca-certificates package).
    public var caFile: String? = nil
    /// Which failed requests are sent again, and after how long.
    public var retry = RetryPolicy()
    /// Answer from the bundled catalog (labelled ``Source/offlineCatalog``) when the server
    /// cannot be reached, instead of failing.
    public var offlineFallback = false
    /// The cache file (SQLite; its folder is created); `nil` caches in memory only, for the
    /// client's lifetime. Several clients and processes may share one file.
    public var cachePath: String? = nil
    /// The most bytes the cache holds (bodies, keys and a small overhead per page); past it
    /// the least recently used pages are evicted. 0 turns the cache off. `nil`: 50 MB for a
    /// file, 2 MB in memory (a memory cache is the process's own memory: a long walk through
    /// a list fills it, so it stays small by default; 2 MB holds 400 pages of 50 breeds).
    public var cacheMaxBytes: Int? = nil

    /// The cap in force: ``cacheMaxBytes``, or the default for where the cache lives.
    public var effectiveCacheMaxBytes: Int {
        cacheMaxBytes ?? (cachePath == nil ? ClientOptions.defaultMemoryCacheBytes : ClientOptions.defaultFileCacheBytes)
    }

    public static let defaultFileCacheBytes = 50 << 20
    public static let defaultMemoryCacheBytes = 2 << 20
    /// How long a cached page is served without asking the server; after it the page is
    /// revalidated (`If-None-Match` / `If-Modified-Since`). Zero revalidates every time.
    /// Whatever its age, a cached page answers when the server cannot.
    public var cacheTTL: Duration = .seconds(300)
    /// Calls in a row that got no response (network error, timeout; a call's retries count
    /// once) before the client turns offline.
    public var offlineAfterFailures: Int = 3
    /// How long the client stays offline (answering from the cache or the catalog at once)
    /// before calls try the network again; a successful probe ends it sooner.
    public var offlineCooldown: Duration = .seconds(30)
    /// The longest wait between two probes (`GET /fact?max_length=1`) while offline: the
    /// first comes after 1 s, each next one after twice as long, up to this.
    public var probeInterval: Duration = .seconds(2)
    /// Pages fetched ahead when a list is read in order (page p, then p+1, of the same
    /// endpoint, limit and max length): the next ones, up to this many, in the background
    /// (``ReadAhead``). 0 turns it off; at most ``maxReadAhead``.
    public var readAhead: Int = 2
    /// The most pages ``readAhead`` may ask for (``ClientOption/readAhead``'s range).
    public static var maxReadAhead: Int { Int(ClientOption.readAhead.range?.upperBound ?? 0) }
    /// The most connections open to one host at once, so the most requests to it under way
    /// at once; more wait their turn. 8 by default, polite to a public API; a local server
    /// or many concurrent calls may want more (at most ``maxConnectionsLimit``). Over HTTP/2
    /// (https, when the server offers it) one connection carries several requests at once.
    /// It sets up the client's own transport, not one given to ``CatFactsClient/init(options:transport:decoder:)``.
    public var maxConnections: Int = ClientOptions.defaultMaxConnections
    /// ``maxConnections`` unless set: as many as the pager loads pages at once.
    public static let defaultMaxConnections = 8
    /// The most ``maxConnections`` may be (``ClientOption/maxConnections``'s range): each
    /// connection holds a file descriptor (1024 a process by default on Linux) and is kept
    /// open for reuse, and more requests than this at once to one host is a flood, not a client.
    public static var maxConnectionsLimit: Int { Int(ClientOption.maxConnections.range?.upperBound ?? 0) }
    /// The OTLP/HTTP collector to export spans and metrics to (a base URL such as
    /// `http://127.0.0.1:4318`: `/v1/traces` and `/v1/metrics` are appended). `nil` (the
    /// default) reads the standard `OTEL_EXPORTER_OTLP_*` environment variables; `""` turns
    /// export off whatever they say. See `ExportSettings` for the rules.
    public var otlpEndpoint: String? = nil

    public init(baseURL: String? = nil, limits: TransportLimits = TransportLimits(),
                userAgent: String? = nil, retry: RetryPolicy = RetryPolicy(), offlineFallback: Bool = false) {
        self.baseURL = baseURL ?? ClientOptions.defaultBaseURL
        self.limits = limits
        self.userAgent = userAgent ?? LibraryVersion.userAgent
        self.retry = retry
        self.offlineFallback = offlineFallback
    }

    /// The proxy schemes libcurl speaks.
    static let proxySchemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    /// The base URL, checked: http or https with a host; a trailing `/` dropped.
    @_optimize(size)  // once per client
    func validatedBaseURL() throws(CatFactsError) -> WebAddress {
        func refuse(_ problem: String) -> CatFactsError { .invalidOption(.baseURL, value: "'\(baseURL)'", problem: problem) }
        var text = baseURL.trimmed()
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = WebAddress(string: text) else { throw refuse("is not a URL; expected e.g. \(Self.defaultBaseURL)") }
        let scheme = url.scheme.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw refuse("uses scheme '\(scheme)'; only http and https are accepted")
        }
        guard let host = url.host, !host.isEmpty else { throw refuse("has no host") }
        guard url.query == nil, url.fragment == nil else { throw refuse("must not carry a query or fragment") }
        return url
    }

    /// A ca_file that libcurl could not read fails every https request with a message about
    /// TLS: said at once, naming the option, instead.
    private static func validateCAFile(_ path: String) throws(CatFactsError) {
        func refuse(_ problem: String) -> CatFactsError { .invalidOption(.caFile, value: "'\(path)'", problem: problem) }
        guard !path.isEmpty else {
            throw .invalidOption(.caFile, value: "\"\"", problem: "is empty; leave it out for the system's CA certificates")
        }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidOption(.caFile, value: path.debugDescription, problem: "contains a control character")
        }
        var info = stat()
        guard stat(path, &info) == 0, access(path, R_OK) == 0 else {
            throw refuse("cannot be read (\(String(cString: strerror(errno)))); name a PEM file of CA certificates")
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            throw refuse("is a folder; name a PEM file of CA certificates (a folder of hashed certificates goes in SSL_CERT_DIR)")
        }
    }

    /// Checks every option against ``ClientOption``'s table (ranges, lengths) and the rules
    /// of the text ones (no control characters in a header, a proxy URL's scheme).
    @_optimize(size)
    func validate() throws(CatFactsError) {
        _ = try validatedBaseURL()
        for option in ClientOption.allCases {
            if let range = option.range, let value = option.number(in: self), !range.contains(value) {
                throw .invalidOption(option, value: "\(value)", problem: "must be in \(option.rangeText ?? "")")
            }
        }
        try Self.requireLength(baseURL, of: .baseURL)
        try Self.requireLength(userAgent, of: .userAgent)
        // A header field must not carry a line break: it would forge further headers.
        guard !userAgent.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidOption(.userAgent, value: userAgent.debugDescription, problem: "contains a control character (CR, LF, ...)")
        }
        if let proxy, !proxy.isEmpty {
            let shown = "'\(ProxyChoice.redacted(proxy))'"
            try Self.requireLength(proxy, of: .proxy, shown: shown)
            let scheme = proxy.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            guard proxy.containsUTF8("://"), Self.proxySchemes.contains(scheme) else {
                throw .invalidOption(.proxy, value: shown, problem: "is not a proxy URL; expected e.g. http://proxy:3128 "
                                     + "(schemes: \(Self.proxySchemes.sorted().joined(separator: ", "))), or \"\" for none")
            }
            guard !proxy.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == " " }) else {
                throw .invalidOption(.proxy, value: shown, problem: "contains a space or a control character")
            }
        }
        if let caFile { try Self.validateCAFile(caFile) }
        if let cachePath, cachePath.isEmpty {
            throw .invalidOption(.cachePath, value: "\"\"", problem: "is empty; leave it out for a memory-only cache")
        }
        if let otlpEndpoint { try Self.requireLength(otlpEndpoint, of: .otlpEndpoint, shown: "'\(ProxyChoice.redacted(otlpEndpoint))'") }
        guard offlineAfterFailures >= 1 else {
            throw .argument("offline after \(offlineAfterFailures) failures: it must be at least 1")
        }
        guard offlineCooldown >= .zero else { throw .argument("the offline cool-down must not be negative") }
        guard probeInterval > .zero else { throw .argument("the probe interval must be greater than zero") }
    }

    /// Refuses `text` longer than `option`'s ``ClientOption/longest``.
    private static func requireLength(_ text: String, of option: ClientOption, shown: String? = nil) throws(CatFactsError) {
        if let longest = option.longest, text.utf8.count > longest {
            throw .invalidOption(option, value: shown ?? "(\(text.utf8.count) bytes)",
                                 problem: "is \(text.utf8.count) bytes long; at most \(longest) are accepted")
        }
    }
}
