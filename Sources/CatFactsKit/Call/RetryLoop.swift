/// Sends a GET, and again after a retryable failure as the ``RetryPolicy`` allows, within
/// the call's deadline (``CallDeadline``): each attempt gets what is left of it, and a wait
/// that would pass it fails at once, saying so. While the client is offline it fails at once
/// with ``CatFactsError/offline(_:)`` instead of touching the network.
struct RetryLoop: Sendable {
    let sender: RequestSender
    let policy: RetryPolicy
    let limits: TransportLimits
    /// The option the deadline came from, for messages.
    let deadlineOption: Duration?
    let onlineState: OnlineState

    @_optimize(size)
    func fetch<Value>(_ endpoint: Endpoint, query: [QueryItem], conditional: CachedResponse?,
                      decode: (borrowing [UInt8]) throws(DecodeFailure) -> Value) async throws(CatFactsError) -> FetchOutcome<Value> {
        var attempt = 0
        var random = SystemRandomNumberGenerator()
        let deadline = CallDeadline.current
        func passed(_ reason: String) -> CatFactsError {
            .deadlinePassed(milliseconds: Int(min(deadlineOption?.milliseconds ?? 0, 9e18)), attempts: attempt, reason: reason,
                            url: ProxyChoice.redacted(sender.address.url(endpoint, query: query).absoluteString))
        }
        while true {
            try checkOnline()
            // Each attempt gets what is left of the call's deadline, at most.
            var limits = self.limits
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { throw passed("no time was left for another attempt") }
                limits.totalTimeout = min(limits.totalTimeout, left)
                limits.connectTimeout = min(limits.connectTimeout, left)
            }
            do {
                CallReport.current?.countAttempt()
                attempt += 1
                return try await sender.send(endpoint, query: query, conditional: conditional, limits: limits, decode: decode)
            } catch {
                var error = error
                if let deadline, case .timeout = error, deadline - ContinuousClock.now < .milliseconds(20) {
                    error = passed("the last attempt had no answer yet")
                }
                let delay = policy.delay(after: error, attempt: attempt - 1, using: &random)
                let fitsTheDeadline = delay.map { delay in deadline.map { ContinuousClock.now + delay <= $0 } ?? true } ?? false
                guard let delay, fitsTheDeadline else {
                    // A call that got no response, retries and all, counts once towards going
                    // offline: one slow call must not put the client offline by itself.
                    if error.isNoResponse { onlineState.recordCallWithoutResponse() }
                    guard let delay else { throw error }
                    // The wait the retry needs would pass the deadline: fail now, saying so.
                    let asked = error.retryAfter.map { "the server asked to retry after \(CatFactsError.format($0)) s" }
                        ?? "the next attempt, in \(CatFactsError.format(delay.seconds)) s, would come after it"
                    throw passed("\(asked) (\(error.description))")
                }
                sender.metrics.recordRetry(endpoint: endpoint.path)
                CallTrace.current?.noteRetryWait(seconds: delay.seconds)
                do {
                    try await TimedWait.sleep(for: delay)
                } catch {
                    throw .cancelled
                }
            }
        }
    }

    /// Fails while offline, within the cool-down.
    private func checkOnline() throws(CatFactsError) {
        let monitor = onlineState.monitor
        guard monitor.bypassesNetwork else { return }
        throw .offline("\(monitor.threshold) calls in a row got no response from \(sender.address.baseURL.absoluteString); "
                       + "trying again in \(Int(monitor.remainingCooldown.seconds.rounded(.up))) s, or sooner if a probe reaches it")
    }
}
