/// Every option of ``ClientOptions``, by its name in the C API (its key in `cf_client_open`'s
/// options JSON; `base_url` is that function's argument), with how each front spells it, its
/// unit and its range: the one place each of these is written. ``ClientOptions/validate()``
/// checks every value against it; the C options parser, the shell's flags and the Python
/// package read their ranges from it or are tested against it (`catfacts --options-table`
/// prints it), and so is the README's options table.
///
/// Errors name an option (``CatFactsError/invalidOption(_:_:)``, ``CatFactsError/option``)
/// and each front words it its own way with ``CatFactsError/description(naming:)``.
public enum ClientOption: String, Sendable, CaseIterable {
    /// The server (``ClientOptions/baseURL``).
    case baseURL = "base_url"
    /// The whole call's deadline (``ClientOptions/deadline``).
    case deadline = "deadline_ms"
    /// One attempt's timeout (``TransportLimits/totalTimeout``).
    case attemptTimeout = "timeout_ms"
    /// Connecting, and a connection idle (``TransportLimits/connectTimeout``).
    case connectTimeout = "connect_timeout_ms"
    /// Retries of a failed request (``RetryPolicy/retries``).
    case retries = "retries"
    /// Pages read ahead in an in-order loop (``ClientOptions/readAhead``).
    case readAhead = "read_ahead"
    /// The cache file (``ClientOptions/cachePath``).
    case cachePath = "cache_path"
    /// The cache's size cap (``ClientOptions/cacheMaxBytes``).
    case cacheMaxBytes = "cache_max_bytes"
    /// How long a cached page answers without asking (``ClientOptions/cacheTTL``).
    case cacheTTL = "cache_ttl_ms"
    /// Answering from the bundled catalog (``ClientOptions/offlineFallback``).
    case offlineFallback = "offline_fallback"
    /// The `User-Agent` header (``ClientOptions/userAgent``).
    case userAgent = "user_agent"
    /// The proxy (``ClientOptions/proxy``).
    case proxy = "proxy"
    /// The largest body accepted (``TransportLimits/maxBodyBytes``).
    case maxBodyBytes = "max_body_bytes"
    /// The OTLP collector (``ClientOptions/otlpEndpoint``).
    case otlpEndpoint = "otlp_endpoint"
    /// Connections to one host at once (``ClientOptions/maxConnections``).
    case maxConnections = "max_connections"
    /// The CA certificates for the server's (``ClientOptions/caFile``).
    case caFile = "ca_file"

    /// What an option's number counts, or that it is not a number.
    public enum Unit: String, Sendable {
        /// Whole milliseconds in C; seconds (at millisecond resolution) in Python and the shell.
        case milliseconds
        /// A count (retries, pages, connections).
        case count
        /// Bytes.
        case bytes
        /// true or false: never a number.
        case flag
        /// Text (a URL, a path, a header value).
        case text
    }

    /// The most milliseconds a timeout or deadline may be: a day.
    public static let day: Int64 = 86_400_000
    /// The longest base URL, proxy URL or collector URL, in bytes: what servers and proxies take.
    public static let longestURL = 2048
    /// The longest User-Agent, in bytes: a header line servers take.
    public static let longestUserAgent = 1024
    /// The longest file path, in bytes: the system's PATH_MAX.
    public static let longestPath = 4096

    /// The keyword of `catfacts.Client` and `AsyncClient`; `nil` where Python has none.
    public var pythonKeyword: String? {
        switch self {
        case .deadline: "timeout"
        case .attemptTimeout: "attempt_timeout"
        case .connectTimeout: "connect_timeout"
        case .cacheTTL: "cache_ttl"
        case .maxBodyBytes: nil
        default: rawValue
        }
    }

    /// The shell's flag; `nil` where the shell keeps the library's choice.
    public var shellFlag: String? {
        switch self {
        case .baseURL: "--base-url"
        case .deadline: "--timeout"
        case .retries: "--retries"
        case .cachePath: "--cache"
        case .cacheTTL: "--cache-ttl"
        case .offlineFallback: "--no-fallback"
        case .otlpEndpoint: "--otlp"
        case .maxConnections: "--max-connections"
        case .caFile: "--ca-file"
        case .attemptTimeout, .connectTimeout, .readAhead, .cacheMaxBytes, .userAgent, .proxy, .maxBodyBytes: nil
        }
    }

    /// What the value is.
    public var unit: Unit {
        switch self {
        case .deadline, .attemptTimeout, .connectTimeout, .cacheTTL: .milliseconds
        case .retries, .readAhead, .maxConnections: .count
        case .cacheMaxBytes, .maxBodyBytes: .bytes
        case .offlineFallback: .flag
        case .baseURL, .cachePath, .userAgent, .proxy, .otlpEndpoint, .caFile: .text
        }
    }

    /// The values accepted, in the C unit (milliseconds, a count, bytes); `nil` for a flag or text.
    public var range: ClosedRange<Int64>? {
        switch self {
        case .deadline, .attemptTimeout, .connectTimeout: 1...Self.day
        case .cacheTTL: 0...(365 * Self.day)
        case .retries: 0...100
        case .readAhead: 0...16
        case .maxConnections: 1...256
        case .cacheMaxBytes: 0...(1 << 40)
        case .maxBodyBytes: 1...(1 << 31)
        case .baseURL, .cachePath, .offlineFallback, .userAgent, .proxy, .otlpEndpoint, .caFile: nil
        }
    }

    /// The longest text accepted, in bytes; `nil` for a number or a flag, or text of any length.
    public var longest: Int? {
        switch self {
        case .baseURL, .proxy, .otlpEndpoint: Self.longestURL
        case .userAgent: Self.longestUserAgent
        case .caFile: Self.longestPath
        default: nil
        }
    }

    /// One line of meaning, as the README's table and the shell's `--options-table` give it.
    public var meaning: String {
        switch self {
        case .baseURL: "the server: http or https, a path prefix allowed"
        case .deadline: "the whole call: attempts, the waits between them, a walk's pages"
        case .attemptTimeout: "one attempt"
        case .connectTimeout: "connecting (and a connection idle)"
        case .retries: "retries of a failed GET (network error, timeout, 429, 502, 503, 504)"
        case .readAhead: "pages read ahead in an in-order loop; 0 off"
        case .cachePath: "the cache file (SQLite); absent: in memory"
        case .cacheMaxBytes: "the cache's size cap; 0 turns the cache off"
        case .cacheTTL: "how long a cached page answers without asking; 0 revalidates every time"
        case .offlineFallback: "answer from the bundled catalog when the server cannot be reached"
        case .userAgent: "the User-Agent header"
        case .proxy: "the proxy URL, or \"\" for none; absent: the environment's"
        case .maxBodyBytes: "the largest body accepted"
        case .otlpEndpoint: "the OTLP/HTTP collector for spans and metrics; \"\" off"
        case .maxConnections: "connections open to one host at once"
        case .caFile: "a PEM file of CA certificates for the server's; absent: CURL_CA_BUNDLE, else SSL_CERT_FILE and SSL_CERT_DIR, else the system's"
        }
    }

    /// The range as every front writes it: `0..100` in C units.
    public var rangeText: String? {
        range.map { "\($0.lowerBound)..\($0.upperBound)" }
    }

    /// The value of this option that `options` holds, in its C unit; `nil` for text and flags
    /// and for an option left unset (a deadline of none, the cache's default cap).
    public func number(in options: ClientOptions) -> Int64? {
        switch self {
        case .deadline: options.deadline.map(\.wholeMilliseconds)
        case .attemptTimeout: options.limits.totalTimeout.wholeMilliseconds
        case .connectTimeout: options.limits.connectTimeout.wholeMilliseconds
        case .cacheTTL: options.cacheTTL.wholeMilliseconds
        case .retries: Int64(options.retry.retries)
        case .readAhead: Int64(options.readAhead)
        case .maxConnections: Int64(options.maxConnections)
        case .cacheMaxBytes: options.cacheMaxBytes.map { Int64($0) }
        case .maxBodyBytes: Int64(options.limits.maxBodyBytes)
        case .baseURL, .cachePath, .offlineFallback, .userAgent, .proxy, .otlpEndpoint, .caFile: nil
        }
    }
}

extension Duration {
    /// Milliseconds, rounded up so a positive duration under 1 ms is not 0 (which every
    /// range of a timeout refuses as it should: nothing would ever be waited for), saturating.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (ms, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        let part = attoseconds / 1_000_000_000_000_000
        let rest = attoseconds % 1_000_000_000_000_000
        let (total, overflow2) = ms.addingReportingOverflow(part + (rest > 0 ? 1 : 0))
        return overflow2 ? .max : total
    }
}
