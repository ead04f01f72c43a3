/// When and how long to wait before sending a failed GET again.
///
/// Only failures that a later attempt may not meet are retried
/// (``CatFactsError/isRetryable``: network errors, timeouts, 429 and 502/503/504). The wait is exponential backoff with full jitter
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
}
