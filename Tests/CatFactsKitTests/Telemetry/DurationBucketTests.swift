import Testing

@testable import CatFactsKit

@Suite("Duration buckets")
struct DurationBucketTests {
    /// Times on and around every bound (where a slot of 3 significant digits holds a bound
    /// and values on both sides of it), below the first and above the last.
    static let micros: [UInt64] = EndpointMetrics.durationBucketBounds.flatMap { bound -> [UInt64] in
        let micros = UInt64(bound * 1_000_000)
        return [micros - micros / 100, micros - 1, micros, micros + 1, micros + micros / 500, micros + micros / 100]
    } + [1, 17, 999, 60_000_000, 3_600_000_000]

    @Test("each bucket counts what count(within: 0...bound) counts")
    func bucketsMatchTheHistogramsOwnCount() {
        var stats = EndpointStats()
        for (index, micros) in Self.micros.enumerated() {
            for _ in 0...(index % 3) { stats.record(bytes: 0, failed: false, micros: micros) }
        }
        let expected = EndpointMetrics.durationBucketBounds.map { bound in
            Int(stats.histogram.count(within: 0...UInt64(bound * 1_000_000)))
        }
        #expect(stats.durationBuckets() == expected)
        // Cumulative, and every timed request is at most the top bound or above it.
        #expect(expected == expected.sorted())
        #expect(expected.last.map { $0 < stats.timed } == true)
    }

    @Test("no timed request: every bucket is 0")
    func noTimesNoCounts() {
        var stats = EndpointStats()
        stats.record(bytes: 10, failed: true, micros: nil)
        #expect(stats.durationBuckets() == Array(repeating: 0, count: EndpointMetrics.durationBucketBounds.count))
    }
}
