/// A finished span, as the exporter queues it and OTLP's JSON writes it (lowerCamelCase keys,
/// ids as hex, times as decimal strings of nanoseconds, the kind and status code as integers).
struct SpanRecord: Sendable, Encodable {
    let traceId: String
    let spanId: String
    /// Left out for a root span.
    let parentSpanId: String?
    /// The W3C `tracestate` of the trace, carried from the host's; left out when it has none.
    let traceState: String?
    let name: String
    /// Always CLIENT (3): every span the library makes is a request it sends.
    let kind = 3
    let startTimeUnixNano: String
    let endTimeUnixNano: String
    let attributes: [OTLPAttribute]
    let status: SpanStatus

    init(traceID: String, spanID: String, parentID: String?, name: String, start: UInt64, end: UInt64,
         attributes: [OTLPAttribute], failure: String?, traceState: String? = nil) {
        traceId = traceID
        self.traceState = traceState
        spanId = spanID
        parentSpanId = parentID
        self.name = name
        startTimeUnixNano = String(start)
        endTimeUnixNano = String(max(start, end))
        self.attributes = attributes
        status = SpanStatus(failure: failure)
    }
}

/// A span's status: unset (0) when it succeeded, as the HTTP conventions leave a client span
/// that got its answer; ERROR (2) with the message when it failed.
struct SpanStatus: Sendable, Encodable {
    let code: Int
    let message: String?

    init(failure: String?) {
        code = failure == nil ? 0 : 2
        message = failure
    }
}

/// The body of a POST to `/v1/traces`: `ExportTraceServiceRequest`.
struct OTLPTraceRequest: Encodable {
    let resourceSpans: [ResourceSpans]

    struct ResourceSpans: Encodable {
        let resource: OTLPResource
        let scopeSpans: [ScopeSpans]
    }

    struct ScopeSpans: Encodable {
        let scope: OTLPScope
        let spans: [SpanRecord]
    }

    init(resource: OTLPResource, spans: [SpanRecord]) {
        resourceSpans = [ResourceSpans(resource: resource, scopeSpans: [ScopeSpans(scope: OTLPResource.scope, spans: spans)])]
    }

    /// The request as JSON text.
    func json() -> String { JSONOutput.encoded(self) }
}
