/// `http.client.request.duration` as the exporter sends it: each attempt's time in the
/// explicit buckets the HTTP semantic conventions recommend, per endpoint, status and error
/// type, cumulative since the client began. Counted exactly (a bucket per bound), not read
/// back from the metrics' HdrHistogram, whose 3 significant digits could put a time on the
/// wrong side of a bound. Safe from any thread.
final class DurationHistogram: Sendable {
    /// Upper bounds in seconds (`http.client.request.duration`'s advice).
    static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]

    /// What the attributes of one series are.
    struct Series: Hashable, Sendable {
        let endpoint: String
        /// The response's status; `nil` when none came.
        let statusCode: Int?
        /// `error.type`: the status code for an error status, else the failure's kind; `nil` on success.
        let errorType: String?
    }

    /// One series' counts: `buckets[i]` holds the times in (bounds[i-1], bounds[i]], the last
    /// one those past every bound (OTLP's bucket counts are not cumulative).
    struct Counts: Sendable, Equatable {
        var buckets = [Int](repeating: 0, count: DurationHistogram.bounds.count + 1)
        var count = 0
        var sum = 0.0
    }

    private let series = Locked<[Series: Counts]>([:])

    /// Records one attempt that took `seconds`.
    func record(_ key: Series, seconds: Double) {
        let index = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        series.withLock { series in
            series[key, default: Counts()].buckets[index] += 1
            series[key, default: Counts()].count += 1
            series[key, default: Counts()].sum += seconds
        }
    }

    /// Every series, sorted by endpoint then status, for a stable order in the payload.
    func snapshot() -> [(Series, Counts)] {
        series.withLock { $0.map { ($0.key, $0.value) } }.sorted {
            ($0.0.endpoint, $0.0.statusCode ?? 0, $0.0.errorType ?? "") < ($1.0.endpoint, $1.0.statusCode ?? 0, $1.0.errorType ?? "")
        }
    }
}
