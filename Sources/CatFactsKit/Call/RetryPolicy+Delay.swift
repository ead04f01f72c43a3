/// The policy applied: which failures are retried is ``CatFactsError/isRetryable``; this
/// decides how long to wait.
extension RetryPolicy {
    /// The wait before retry number `attempt + 1` after `error`; `nil` when it must not be retried.
    func delay<R: RandomNumberGenerator>(after error: CatFactsError, attempt: Int, using random: inout R) -> Duration? {
        guard attempt < retries, error.isRetryable else { return nil }
        switch error {
        case .rateLimited(let retryAfter?, _), .http(503, _, _, let retryAfter?):
            // The server said when: wait that long (not less, so a fleet does not stampede),
            // unless it is past the cap, and then fail at once saying how long it asked for.
            guard retryAfter * 1000 <= Double(maxRetryAfter.milliseconds) else { return nil }
            return .milliseconds(Int64((retryAfter * 1000).rounded(.up)))
        default:
            let ceiling = min(maxDelay, baseDelay * (1 << min(attempt, 20)))
            let milliseconds = max(0, Int64(ceiling.milliseconds))
            return .milliseconds(Int64.random(in: 0...milliseconds, using: &random))
        }
    }
}
