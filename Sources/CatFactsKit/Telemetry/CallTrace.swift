/// One call's spans as it runs: the call span's ids, and each attempt the stages report
/// (``beginAttempt()``, ``end(_:status:error:seconds:)``, ``noteRetryWait(seconds:)``), bound to the
/// call's task as ``current`` so the stages need not pass it down. Safe from any thread (a
/// call's attempts and waits come one after another, but on whichever thread resumed them).
final class CallTrace: Sendable {
    /// The trace of the call this task is making, when tracing is on.
    @TaskLocal static var current: CallTrace?

    let traceID: String
    let spanID: String
    /// The host's span (``TraceParent/parentID``), when it set one.
    let parentID: String?
    /// Whether the trace is recorded: the host's sampled flag, or yes without a host parent.
    /// An unsampled call's requests say so (`-00`) and its spans are not exported.
    let sampled: Bool
    /// The host's `tracestate`, carried on every request and span of the call.
    let traceState: String?
    /// `GET /breeds`.
    let name: String
    let endpoint: String
    let start: UInt64
    private let state = Locked(State())

    private struct State {
        var attempts: [Attempt] = []
        var source = Source.network
    }

    /// One attempt: its span id, its times, what came of it, and the wait after it.
    struct Attempt: Sendable {
        let spanID: String
        let start: UInt64
        var end: UInt64 = 0
        var statusCode: Int?
        var errorType: String?
        var failure: String?
        var seconds = 0.0
        var retryWait: Double?
    }

    init(endpoint: String, context: TraceContext?) {
        traceID = context?.parent.traceID ?? TraceIDs.traceID()
        parentID = context?.parent.parentID
        sampled = context?.parent.sampled ?? true
        traceState = context?.state
        spanID = TraceIDs.spanID()
        self.endpoint = endpoint
        name = "GET \(endpoint)"
        start = Timestamp.unixNanoseconds()
    }

    /// Starts an attempt: the `traceparent` its request carries (its own span as the parent).
    func beginAttempt() -> (spanID: String, traceparent: String) {
        let attempt = Attempt(spanID: TraceIDs.spanID(), start: Timestamp.unixNanoseconds())
        state.withLock { $0.attempts.append(attempt) }
        return (attempt.spanID, TraceParent.header(traceID: traceID, spanID: attempt.spanID, sampled: sampled))
    }

    /// Ends the attempt `spanID`: the response's status if one came, the failure if any, and
    /// its time in seconds.
    func end(_ spanID: String, status: Int?, error: CatFactsError?, seconds: Double) {
        let end = Timestamp.unixNanoseconds()
        state.withLock { state in
            guard let index = state.attempts.lastIndex(where: { $0.spanID == spanID }) else { return }
            state.attempts[index].end = end
            state.attempts[index].statusCode = status
            state.attempts[index].seconds = seconds
            if let error {
                state.attempts[index].errorType = Self.errorType(error, status: status)
                state.attempts[index].failure = error.description
            }
        }
    }

    /// The retry loop waits `seconds` after the last attempt before sending again.
    func noteRetryWait(seconds: Double) {
        state.withLock { state in
            guard !state.attempts.isEmpty else { return }
            state.attempts[state.attempts.count - 1].retryWait = seconds
        }
    }

    /// Where the answer came from, when not the network.
    func noteSource(_ source: Source) {
        state.withLock { $0.source = source }
    }

    /// The attempts so far.
    var attempts: [Attempt] { state.withLock { $0.attempts } }

    /// The call span and its attempts' spans, the call having ended with `failure` (or not).
    func spans(failure: CatFactsError?, server: ServerIdentity) -> [SpanRecord] {
        let end = Timestamp.unixNanoseconds()
        let (attempts, source) = state.withLock { ($0.attempts, $0.source) }
        var callAttributes = server.attributes(endpoint: endpoint)
        callAttributes.append(OTLPAttribute("catfacts.source", .string(source.rawValue)))
        callAttributes.append(OTLPAttribute("catfacts.attempts", .int(attempts.count)))
        if let failure { callAttributes.append(OTLPAttribute("error.type", .string(Self.errorType(failure, status: nil)))) }
        var spans = [SpanRecord(traceID: traceID, spanID: spanID, parentID: parentID, name: name, start: start, end: end,
                                attributes: callAttributes, failure: failure?.description, traceState: traceState)]
        for (number, attempt) in attempts.enumerated() {
            var attributes = server.attributes(endpoint: endpoint)
            attributes.append(OTLPAttribute("http.request.resend_count", .int(number)))
            if let status = attempt.statusCode { attributes.append(OTLPAttribute("http.response.status_code", .int(status))) }
            if let type = attempt.errorType { attributes.append(OTLPAttribute("error.type", .string(type))) }
            if let wait = attempt.retryWait { attributes.append(OTLPAttribute("catfacts.retry_wait_s", .double(wait))) }
            spans.append(SpanRecord(traceID: traceID, spanID: attempt.spanID, parentID: spanID, name: name, start: attempt.start,
                                    end: attempt.end == 0 ? end : attempt.end, attributes: attributes, failure: attempt.failure,
                                    traceState: traceState))
        }
        return spans
    }

    /// `error.type` as the HTTP conventions want it: the status code for an error status,
    /// else the kind of failure (`network`, `timeout`, `decode`, ...).
    static func errorType(_ error: CatFactsError, status: Int?) -> String {
        if let status, status >= 400 { return String(status) }
        if case .http(let status, _, _, _) = error { return String(status) }
        return String(describing: error.status)
    }
}
