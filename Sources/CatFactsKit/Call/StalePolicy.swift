extension CatFactsError {
    /// Whether a cached response may answer instead of this error (labelled
    /// ``Source/cache`` with its real fetch time): when the server could not be reached
    /// (network error, timeout, offline) or could not serve (5xx, 429).
    ///
    /// Not for decode errors: a 200 whose body does not decode means the API or the library
    /// changed, and an old page would hide that; the error says so instead. Not for other
    /// 4xx (a wrong base URL or path) or cancellation either.
    var allowsStaleAnswer: Bool {
        switch self {
        case .network, .timeout, .deadlinePassed, .offline, .rateLimited: true
        case .http(let status, _, _, _): status >= 500
        default: false
        }
    }
}
