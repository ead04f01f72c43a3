import CatFactsKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `metrics --bars`: each endpoint's latency distribution, from the buckets the library
/// reads off its HdrHistogram (``EndpointMetrics/durationBuckets``, exact to 3 significant
/// digits), as text bars for people who would rather look than read percentiles, or as JSON.
enum LatencyHistogram {
    /// One bucket: the times in (previous bound, `upperMs`]; `upperMs` `nil` for those past the last.
    struct Bucket: Encodable, Equatable {
        let upperMs: Double?
        let count: Int

        enum CodingKeys: String, CodingKey { case upperMs = "le_ms", count }

        /// `le_ms` always written, `null` for the last bucket.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(upperMs, forKey: .upperMs)
            try container.encode(count, forKey: .count)
        }
    }

    struct Endpoint: Encodable, Equatable {
        let endpoint: String
        /// The requests that brought back a whole response: the ones timed.
        let timed: Int
        let buckets: [Bucket]
    }

    /// Each endpoint's buckets, not cumulative (the library's are).
    static func endpoints(_ snapshot: MetricsSnapshot) -> [Endpoint] {
        snapshot.endpoints.map { figures in
            var buckets: [Bucket] = []
            var below = 0
            for (index, bound) in EndpointMetrics.durationBucketBounds.enumerated() {
                let upTo = index < figures.durationBuckets.count ? figures.durationBuckets[index] : below
                buckets.append(Bucket(upperMs: bound * 1000, count: max(0, upTo - below)))
                below = max(below, upTo)
            }
            buckets.append(Bucket(upperMs: nil, count: max(0, figures.timedRequests - below)))
            return Endpoint(endpoint: figures.endpoint, timed: figures.timedRequests, buckets: buckets)
        }
    }

    /// `{"endpoints":[{"endpoint":"/breeds","timed":N,"buckets":[{"le_ms":5,"count":N},...]}]}`.
    static func json(_ snapshot: MetricsSnapshot) -> String {
        struct Document: Encodable { let endpoints: [Endpoint] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Document(endpoints: endpoints(snapshot))) else { return "{\"endpoints\":[]}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Per endpoint: a heading, then a line per bucket, `≤   5 ms ████ 8`, bars scaled to the
    /// largest bucket within `width` columns; an endpoint with nothing timed says so.
    static func lines(_ snapshot: MetricsSnapshot, width: Int) -> [String] {
        let all = endpoints(snapshot)
        guard !all.isEmpty else { return ["No requests yet."] }
        var lines: [String] = []
        for endpoint in all {
            if !lines.isEmpty { lines.append("") }
            lines.append("\(endpoint.endpoint) · \(endpoint.timed) timed")
            guard endpoint.timed > 0 else {
                lines.append("  no response timed yet")
                continue
            }
            let labels = endpoint.buckets.map { bucket in
                bucket.upperMs.map { "≤ " + pad(number($0), to: 5) + " ms" } ?? "> " + pad(number(EndpointMetrics.durationBucketBounds.last.map { $0 * 1000 } ?? 0), to: 5) + " ms"
            }
            let counts = endpoint.buckets.map { String($0.count) }
            let countWidth = counts.map(\.count).max() ?? 1
            let largest = max(1, endpoint.buckets.map(\.count).max() ?? 1)
            // At most 60 columns of bar: a width that is not a terminal's may be huge.
            let room = min(60, max(10, width - 2 - (labels.map(\.count).max() ?? 10) - countWidth - 2))
            for (index, bucket) in endpoint.buckets.enumerated() {
                // A bucket holding anything gets a bar of at least one block.
                let length = bucket.count == 0 ? 0 : max(1, bucket.count * room / largest)
                let bar = String(repeating: "█", count: length) + String(repeating: " ", count: room - length)
                lines.append("  \(labels[index]) \(bar) \(pad(counts[index], to: countWidth))")
            }
        }
        return lines
    }

    private static func number(_ milliseconds: Double) -> String {
        milliseconds == milliseconds.rounded() ? String(Int(milliseconds)) : String(milliseconds)
    }

    private static func pad(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
