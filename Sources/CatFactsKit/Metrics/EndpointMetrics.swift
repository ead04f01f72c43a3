/// One endpoint's figures in a ``MetricsSnapshot``; JSON keys as `cf_metrics` documents them in include/catfacts.h.
///
/// `requests` counts requests sent (a call served from cache counts in `cacheHits`
/// instead); `errors` those that failed. The times (milliseconds, wall time from sending
/// the request to having the whole body) cover the requests that brought back a whole
/// response, whatever its status; a request that got none (refused, timed out) is
/// counted but has no time to give. A time is `nil` when there is nothing to measure (no
/// request got a response yet: none was sent, or every one failed without one), never 0,
/// which would read as a 0 ms response; the JSON writes it as `null`.
public struct EndpointMetrics: Sendable, Equatable, Encodable {
    public var endpoint: String
    public var requests: Int
    public var errors: Int
    public var avgMs: Double?
    public var lastMs: Double?
    public var minMs: Double?
    public var maxMs: Double?
    public var p50Ms: Double?
    public var p95Ms: Double?
    public var p99Ms: Double?
    /// Body bytes received.
    public var bytes: Int
    public var cacheHits: Int
    public var retries: Int
    /// Requests the times describe (those that brought back a whole response). Not in the JSON.
    public var timedRequests: Int = 0
    /// The sum of their times, in milliseconds. Not in the JSON.
    public var totalMs: Double = 0
    /// How many of the timed requests took at most each of ``durationBucketBounds`` (so
    /// cumulative, as a Prometheus histogram counts), from the HdrHistogram: exact to its 3
    /// significant digits. Not in the JSON.
    public var durationBuckets: [Int] = []

    /// The upper bounds of ``durationBuckets``, in seconds: Prometheus' default buckets.
    public static let durationBucketBounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    enum CodingKeys: String, CodingKey {
        case endpoint, requests, errors
        case avgMs = "avg_ms", lastMs = "last_ms", minMs = "min_ms", maxMs = "max_ms"
        case p50Ms = "p50_ms", p95Ms = "p95_ms", p99Ms = "p99_ms"
        case bytes, cacheHits = "cache_hits", retries
    }

    /// Every key, a time without a value as `null` (a synthesized encoder would leave the
    /// key out): the JSON's keys are always there.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(endpoint, forKey: .endpoint)
        try c.encode(requests, forKey: .requests)
        try c.encode(errors, forKey: .errors)
        try c.encode(avgMs, forKey: .avgMs)
        try c.encode(lastMs, forKey: .lastMs)
        try c.encode(minMs, forKey: .minMs)
        try c.encode(maxMs, forKey: .maxMs)
        try c.encode(p50Ms, forKey: .p50Ms)
        try c.encode(p95Ms, forKey: .p95Ms)
        try c.encode(p99Ms, forKey: .p99Ms)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(cacheHits, forKey: .cacheHits)
        try c.encode(retries, forKey: .retries)
    }
}
