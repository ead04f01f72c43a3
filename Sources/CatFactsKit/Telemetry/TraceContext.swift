/// The host's W3C trace context: its `traceparent` and the `tracestate` that goes with it
/// (``CatFactsClient/setTraceContext(_:state:)``, `cf_client_set_trace_context`).
public struct TraceContext: Sendable, Equatable {
    public let parent: TraceParent
    /// The vendors' entries (`key=value,...`), carried unchanged on every request of the
    /// trace and in the exported spans; `nil`: none.
    public let state: String?

    /// The longest `tracestate` accepted: 32 entries of at most 256 + 1 + 256 bytes, with commas.
    static let longestState = 32 * 513 + 31

    /// `traceparent` parsed, with `tracestate` (`nil` or empty: none).
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` naming what is wrong: the traceparent as
    ///   ``TraceParent/init(parsing:)`` says, or a tracestate that is too long or holds a
    ///   character outside printable ASCII.
    public init(traceparent: String, tracestate: String?) throws(CatFactsError) {
        parent = try TraceParent(parsing: traceparent)
        guard let tracestate, !tracestate.isEmpty else {
            state = nil
            return
        }
        guard tracestate.utf8.count <= Self.longestState else {
            throw .argument("tracestate is \(tracestate.utf8.count) bytes long; at most \(Self.longestState)")
        }
        if let bad = tracestate.utf8.firstIndex(where: { $0 < 0x20 || $0 > 0x7E }) {
            let offset = tracestate.utf8.distance(from: tracestate.utf8.startIndex, to: bad)
            throw .argument("tracestate '\(QuotedValue.shown(tracestate))' holds a character outside printable ASCII at byte \(offset)")
        }
        state = tracestate
    }

    init(parent: TraceParent, state: String? = nil) {
        self.parent = parent
        self.state = state
    }
}

/// The trace context the calls of one task use instead of their client's: a C thread's
/// (`cf_client_set_trace_context`) bound to the calls it makes. `context` `nil`: those calls
/// have no host parent, whatever the client's is.
package struct HostTrace: Sendable, Equatable {
    package let context: TraceContext?

    package init(_ context: TraceContext?) {
        self.context = context
    }

    /// The override of the calls this task makes, if any.
    @TaskLocal package static var current: HostTrace?
}
