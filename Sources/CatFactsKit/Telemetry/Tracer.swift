/// A client's tracing: the host's trace context, if it set one (the client's, or the calling
/// task's: ``HostTrace/current``, which comes first), and the exporter, if the client exports.
/// Tracing is on when either is there: each attempt's request then carries a `traceparent`
/// (and the host's `tracestate`), and with an exporter the call's spans are exported, unless
/// the host's parent is not sampled. With neither, calls make no trace and no header is added.
final class Tracer: Sendable {
    /// `nil`: the client does not export.
    let exporter: ExportClient?
    let server: ServerIdentity
    private let context = Locked<TraceContext?>(nil)

    /// Unique in the process: what a C thread's trace contexts are keyed by.
    let serial: Int
    private static let serials = Locked(0)

    init(exporter: ExportClient?, server: ServerIdentity) {
        self.exporter = exporter
        self.server = server
        serial = Self.serials.withLock { last in
            last += 1
            return last
        }
    }

    /// The client's trace context, used by calls that start after it is set (unless their
    /// task has its own, ``HostTrace/current``).
    var traceContext: TraceContext? {
        get { context.withLock { $0 } }
        set { context.withLock { $0 = newValue } }
    }

    /// A trace for a call to `endpoint`, or `nil` with tracing off.
    func beginCall(endpoint: String) -> CallTrace? {
        let context = HostTrace.current.map(\.context) ?? traceContext
        guard exporter != nil || context != nil else { return nil }
        return CallTrace(endpoint: endpoint, context: context)
    }

    /// The call of `trace` ended, failing with `failure` or not: its spans go to the exporter.
    func endCall(_ trace: CallTrace, failure: CatFactsError?) {
        guard let exporter else { return }
        // An unsampled call still counts in the metrics; its spans are not recorded.
        exporter.enqueue(trace.sampled ? trace.spans(failure: failure, server: server) : [], attempts: trace.attempts,
                         endpoint: trace.endpoint)
    }

    /// Leaves the exporter; the last client to leave flushes it (bounded: ``ExportClient/close()``).
    func close() {
        exporter?.close()
    }
}
