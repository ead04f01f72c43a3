/// The OTLP exporter's figures, the metrics JSON's `"export"` block (`cf_metrics` in include/catfacts.h): `null` when
/// the client does not export and its environment named no collector.
public struct ExportState: Sendable, Equatable, Codable {
    /// The collector (its base URL); `nil` when export is off because the environment's
    /// collector URL was refused (``warnings`` says why).
    public var endpoint: String?
    /// Items the collector took: spans, plus the data points of each metrics request.
    public var sent: Int
    /// Spans discarded, oldest first, past the queue's bound (`OTEL_BSP_MAX_QUEUE_SIZE`).
    public var dropped: Int
    /// Export requests that failed (no answer in time, refused, or a status other than 2xx).
    public var failures: Int
    /// Spans waiting to be sent.
    public var queued: Int
    /// The `OTEL_*` environment variables that were ignored, and why.
    public var warnings: [String]
    /// Where spans go (a signal's own endpoint, or `<endpoint>/v1/traces`; without a
    /// password); `nil` when spans are not sent (`OTEL_TRACES_EXPORTER=none`, export off).
    public var tracesEndpoint: String?
    /// Where metrics go, as ``tracesEndpoint``.
    public var metricsEndpoint: String?

    enum CodingKeys: String, CodingKey {
        case endpoint, sent, dropped, failures, queued, warnings
        case tracesEndpoint = "traces_endpoint", metricsEndpoint = "metrics_endpoint"
    }

    public init(endpoint: String?, sent: Int = 0, dropped: Int = 0, failures: Int = 0, queued: Int = 0, warnings: [String] = [],
                tracesEndpoint: String? = nil, metricsEndpoint: String? = nil) {
        self.endpoint = endpoint
        self.tracesEndpoint = tracesEndpoint
        self.metricsEndpoint = metricsEndpoint
        self.sent = sent
        self.dropped = dropped
        self.failures = failures
        self.queued = queued
        self.warnings = warnings
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        // null rather than left out: every key is always there.
        try c.encode(endpoint, forKey: .endpoint)
        try c.encode(sent, forKey: .sent)
        try c.encode(dropped, forKey: .dropped)
        try c.encode(failures, forKey: .failures)
        try c.encode(queued, forKey: .queued)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(tracesEndpoint, forKey: .tracesEndpoint)
        try c.encode(metricsEndpoint, forKey: .metricsEndpoint)
    }
}
