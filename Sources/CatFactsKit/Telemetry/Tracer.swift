/// A client's tracing: the host's trace parent, if it set one, and the exporter, if the
/// client exports. Tracing is on when either is there: each attempt's request then carries a
/// `traceparent`, and with an exporter the call's spans are exported. With neither, calls
/// make no trace and no header is added.
final class Tracer: Sendable {
    /// `nil`: the client does not export.
    let exporter: OTLPExporter?
    let server: ServerIdentity
    private let parent = Locked<TraceParent?>(nil)

    init(exporter: OTLPExporter?, server: ServerIdentity) {
        self.exporter = exporter
        self.server = server
    }

    /// The host's trace parent, used by calls that start after it is set.
    var traceParent: TraceParent? {
        get { parent.withLock { $0 } }
        set { parent.withLock { $0 = newValue } }
    }

    /// A trace for a call to `endpoint`, or `nil` with tracing off.
    func beginCall(endpoint: String) -> CallTrace? {
        let parent = traceParent
        guard exporter != nil || parent != nil else { return nil }
        return CallTrace(endpoint: endpoint, parent: parent)
    }

    /// The call of `trace` ended, failing with `failure` or not: its spans go to the exporter.
    func endCall(_ trace: CallTrace, failure: CatFactsError?) {
        guard let exporter else { return }
        exporter.enqueue(trace.spans(failure: failure, server: server), attempts: trace.attempts, endpoint: trace.endpoint)
    }

    /// Flushes and stops the exporter (bounded: ``OTLPExporter/close()``).
    func close() {
        exporter?.close()
    }
}
