/// When and how long to wait before sending a failed GET again.
///
/// Only failures that a later attempt may not meet are retried: network errors,
/// timeouts, 429 and 502/503/504. The wait is exponential backoff with full jitter
/// (a random time up to `baseDelay × 2^attempt`, capped at `maxDelay`), or the server's
/// `Retry-After` when it sent one — unless that is longer than `maxRetryAfter`, and then
/// the error is returned at once rather than blocking the caller for that long.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt (0: none).
    public var retries: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    public var maxRetryAfter: Duration

    public init(retries: Int = 2, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(5),
                maxRetryAfter: Duration = .seconds(30)) {
        self.retries = retries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// The wait before retry number `attempt + 1` after `error`; `nil` when it must not be retried.
    func delay<R: RandomNumberGenerator>(after error: CatFactsError, attempt: Int, using random: inout R) -> Duration? {
        guard attempt < retries else { return nil }
        switch error {
        case .rateLimited(let retryAfter?, _), .http(503, _, _, let retryAfter?):
            // The server said when: wait that long (not less, so a fleet does not stampede),
            // unless it is past the cap, and then fail at once saying how long it asked for.
            guard retryAfter * 1000 <= Double(maxRetryAfter.milliseconds) else { return nil }
            return .milliseconds(Int64((retryAfter * 1000).rounded(.up)))
        case .network, .timeout, .rateLimited(nil, _), .http(502, _, _, _), .http(503, _, _, nil), .http(504, _, _, _):
            let ceiling = min(maxDelay, baseDelay * (1 << min(attempt, 20)))
            let milliseconds = max(0, Int64(ceiling.milliseconds))
            return .milliseconds(Int64.random(in: 0...milliseconds, using: &random))
        default:
            return nil
        }
    }
}
