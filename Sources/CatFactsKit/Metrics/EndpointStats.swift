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
    /// The longest time the histogram tells apart, in microseconds (an hour); longer is clamped to it.
    static let highestMicros: UInt64 = 3_600_000_000
    /// Microseconds, 3 significant digits. It grows to the longest time recorded (1,024 counts
    /// for each power of two past 2 ms) instead of holding counts up to an hour from the start:
    /// at 4 bytes a count, 8 kB at first, 32 kB for times up to 100 ms and 48 kB up to 2 s,
    /// where a fixed hour's range took 184 kB (23,552 counts of 8 bytes) for every endpoint of
    /// every client. 4-byte counts hold 4,294,967,295 times; ``record(bytes:failed:micros:)``
    /// stops adding to the histogram there, so no count wraps.
    var histogram = Histogram<UInt32>(numberOfSignificantValueDigits: .three)

    /// One request: its body's bytes, whether it failed, and its time if a response came.
    mutating func record(bytes: Int, failed: Bool, micros: UInt64?) {
        requests += 1
        self.bytes += bytes
        if failed { errors += 1 }
        if let micros { recordTime(micros: micros) }
    }

    private mutating func recordTime(micros: UInt64) {
        let value = Swift.min(Swift.max(micros, 1), Self.highestMicros)
        timed += 1
        totalMicros += value
        lastMicros = value
        minMicros = Swift.min(minMicros, value)
        maxMicros = Swift.max(maxMicros, value)
        if histogram.totalCount < UInt64(UInt32.max) { _ = histogram.record(value) }
    }

    func snapshot(endpoint: String) -> EndpointMetrics {
        func ms(_ micros: UInt64) -> Double { (Double(micros) / 1000 * 1000).rounded() / 1000 }
        // No response measured: no time (nil), rather than a 0 that reads as a 0 ms response.
        func time(_ micros: @autoclosure () -> UInt64) -> Double? { timed > 0 ? ms(micros()) : nil }
        return EndpointMetrics(
            endpoint: endpoint, requests: requests, errors: errors,
            avgMs: time(totalMicros / UInt64(Swift.max(timed, 1))),
            lastMs: time(lastMicros),
            minMs: time(minMicros),
            maxMs: time(maxMicros),
            p50Ms: time(histogram.valueAtPercentile(50)),
            p95Ms: time(histogram.valueAtPercentile(95)),
            p99Ms: time(histogram.valueAtPercentile(99)),
            bytes: bytes, cacheHits: cacheHits, retries: retries,
            timedRequests: timed, totalMs: Double(totalMicros) / 1000,
            durationBuckets: durationBuckets())
    }

    /// How many timed requests took at most each of ``EndpointMetrics/durationBucketBounds``:
    /// what `histogram.count(within: 0...bound)` says for each bound, in one pass over the
    /// recorded values. A `count(within:)` per bound walked the histogram's slots from 0 each
    /// time (11 walks of up to 14,000 slots per endpoint), which made a metrics snapshot cost
    /// 11 ms in a release build.
    func durationBuckets() -> [Int] {
        let bounds = EndpointMetrics.durationBucketBounds.map { UInt64($0 * 1_000_000) }
        var buckets = [Int](repeating: 0, count: bounds.count)
        for recorded in histogram.recordedValues() {
            // A slot counts toward a bound when the bound falls in it or above it.
            let lowest = histogram.lowestEquivalentForValue(recorded.value)
            guard let first = bounds.firstIndex(where: { lowest <= $0 }) else { continue }
            for index in first..<bounds.count { buckets[index] += Int(recorded.count) }
        }
        return buckets
    }
}
