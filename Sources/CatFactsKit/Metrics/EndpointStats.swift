import Histogram

/// The running tally for one endpoint; guarded by ``MetricsRecorder``'s lock.
struct EndpointStats {
    var requests = 0
    var errors = 0
    var bytes = 0
    var cacheHits = 0
    var retries = 0
    /// Requests that brought back a whole response, the ones the times describe.
    var timed = 0
    var totalMicros: UInt64 = 0
    var lastMicros: UInt64 = 0
    var minMicros = UInt64.max
    var maxMicros: UInt64 = 0
    /// Microseconds, 3 significant digits, up to an hour (longer is clamped).
    var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)

    /// One request: its body's bytes, whether it failed, and its time if a response came.
    mutating func record(bytes: Int, failed: Bool, micros: UInt64?) {
        requests += 1
        self.bytes += bytes
        if failed { errors += 1 }
        if let micros { recordTime(micros: micros) }
    }

    private mutating func recordTime(micros: UInt64) {
        let value = Swift.min(Swift.max(micros, 1), histogram.highestTrackableValue)
        timed += 1
        totalMicros += value
        lastMicros = value
        minMicros = Swift.min(minMicros, value)
        maxMicros = Swift.max(maxMicros, value)
        _ = histogram.record(value)
    }

    func snapshot(endpoint: String) -> EndpointMetrics {
        func ms(_ micros: UInt64) -> Double { (Double(micros) / 1000 * 1000).rounded() / 1000 }
        let hasTimes = timed > 0
        return EndpointMetrics(
            endpoint: endpoint, requests: requests, errors: errors,
            avgMs: hasTimes ? ms(totalMicros / UInt64(timed)) : 0,
            lastMs: hasTimes ? ms(lastMicros) : 0,
            minMs: hasTimes ? ms(minMicros) : 0,
            maxMs: hasTimes ? ms(maxMicros) : 0,
            p50Ms: hasTimes ? ms(histogram.valueAtPercentile(50)) : 0,
            p95Ms: hasTimes ? ms(histogram.valueAtPercentile(95)) : 0,
            p99Ms: hasTimes ? ms(histogram.valueAtPercentile(99)) : 0,
            bytes: bytes, cacheHits: cacheHits, retries: retries,
            timedRequests: timed, totalMs: Double(totalMicros) / 1000,
            durationBuckets: EndpointMetrics.durationBucketBounds.map { bound in
                hasTimes ? Int(histogram.count(within: 0...UInt64(bound * 1_000_000))) : 0
            })
    }
}
