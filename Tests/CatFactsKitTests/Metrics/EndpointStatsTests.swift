import Testing

@testable import CatFactsKit

@Suite("Endpoint stats' histogram")
struct EndpointStatsTests {
    @Test("the histogram grows to the longest time recorded, not to an hour")
    func histogramGrowsToTheLongestTime() {
        var stats = EndpointStats()
        // Bucket 0 holds 1...2047 µs one by one: no time recorded needs more than it.
        #expect(stats.histogram.highestTrackableValue < 4_096)
        for micros: UInt64 in [120, 4_800, 99_000, 100_000] {
            stats.record(bytes: 10, failed: false, micros: micros)
        }
        // 100 ms fits below 2,048 << 6 µs: 7 buckets, 8 × 1,024 counts (32 kB), not 23 × 1,024.
        #expect(stats.histogram.highestTrackableValue < 131_072)
        #expect(stats.histogram.count(within: 98_000...101_000) == 2)
        #expect(stats.histogram.totalCount == 4)
        #expect(stats.snapshot(endpoint: "/facts").p99Ms == 100)
    }

    @Test("a time over an hour counts as an hour")
    func longerThanAnHourIsClamped() {
        var stats = EndpointStats()
        stats.record(bytes: 0, failed: false, micros: 7_200_000_000)
        stats.record(bytes: 0, failed: false, micros: 0)
        let metrics = stats.snapshot(endpoint: "/breeds")
        #expect(stats.timed == 2)
        #expect(stats.histogram.totalCount == 2)
        #expect(metrics.maxMs == 3_600_000)
        #expect(metrics.minMs == 0.001)
        #expect(stats.histogram.highestEquivalentForValue(EndpointStats.highestMicros) >= EndpointStats.highestMicros)
        #expect(stats.histogram.count(within: 0...EndpointStats.highestMicros) == 2)
    }

    @Test("a full count stays full: the histogram stops at 4,294,967,295 times, never wraps")
    func fullHistogramNeverWraps() {
        var stats = EndpointStats()
        stats.histogram.record(1_000, count: UInt32.max)
        stats.record(bytes: 0, failed: false, micros: 1_000)
        stats.record(bytes: 0, failed: false, micros: 50_000)
        #expect(stats.histogram.totalCount == UInt64(UInt32.max))
        #expect(stats.histogram.count(within: 0...1_000) == UInt64(UInt32.max))
        #expect(stats.histogram.valueAtPercentile(99) == stats.histogram.highestEquivalentForValue(1_000))
        // The other figures go on counting.
        #expect(stats.timed == 2)
        #expect(stats.snapshot(endpoint: "/fact").maxMs == 50)
    }
}
