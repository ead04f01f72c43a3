/// What a failure says about the server: the one classification that every policy of a call
/// asks (``RetryPolicy``'s retries, going offline, the cached answer, the bundled catalog), so
/// they cannot disagree on what "the server gave no response" means.
///
/// | error                         | no response | unreachable | unavailable | retryable |
/// |-------------------------------|-------------|-------------|-------------|-----------|
/// | network, timeout              | yes         | yes         |             | yes       |
/// | deadlinePassed                | yes         | yes         |             |           |
/// | offline                       |             | yes         |             |           |
/// | rateLimited (429)             |             |             | yes         | yes       |
/// | http 502, 503, 504            |             |             | yes         | yes       |
/// | http 500, 501, 505...         |             |             | yes         |           |
/// | http 4xx, decode, the rest    |             |             |             |           |
extension CatFactsError {
    /// The server gave no response: it could not be reached, the connection broke, or no
    /// complete answer came in time (the attempt's timeout or the call's deadline). A call
    /// that ends so counts towards going offline (``OfflineMonitor``).
    package var isNoResponse: Bool {
        switch self {
        case .network, .timeout, .deadlinePassed: true
        default: false
        }
    }

    /// The server was not reached: it gave no response, or the client, offline, did not ask
    /// it. The bundled catalog may answer instead (``OfflineFallback``).
    package var isServerUnreachable: Bool {
        if case .offline = self { return true }
        return isNoResponse
    }

    /// The server answered that it cannot serve now: any 5xx, or 429.
    package var isServerUnavailable: Bool {
        switch self {
        case .rateLimited: true
        case .http(let status, _, _, _): status >= 500
        default: false
        }
    }

    /// Whether a cached response may answer instead of this error (labelled
    /// ``Source/cache`` with its real fetch time): the server was not reached or could not
    /// serve.
    ///
    /// Not for decode errors: a 200 whose body does not decode means the API or the library
    /// changed, and an old page would hide that; the error says so instead. Not for other
    /// 4xx (a wrong base URL or path) or cancellation either.
    package var allowsStaleAnswer: Bool { isServerUnreachable || isServerUnavailable }

    /// Whether another attempt may meet a different fate: this attempt got no response
    /// (not the call's deadline, which leaves no time for one), or a gateway or an overloaded
    /// server answered (429, 502, 503, 504). A 500 or 501 is the server's own failure and
    /// would come back.
    package var isRetryable: Bool {
        switch self {
        case .network, .timeout, .rateLimited: true
        case .http(let status, _, _, _): status == 502 || status == 503 || status == 504
        default: false
        }
    }
}
