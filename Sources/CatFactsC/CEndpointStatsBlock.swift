import CatFactsKit
import CCatFactsHeader

/// A client's per-endpoint metrics laid out for C in one `malloc`'d block (``CBlock``), freed
/// whole with `cf_free`: a `cf_endpoint_stats_array`, then the `cf_endpoint_stats`, then the
/// endpoints' names, each followed by a NUL. A time with nothing measured is NaN (the header's
/// "no data"), as it is `null` in the JSON.
enum CEndpointStatsBlock {
    static func make(_ endpoints: [EndpointMetrics]) -> UnsafeMutablePointer<cf_endpoint_stats_array> {
        let textCapacity = endpoints.reduce(0) { $0 + $1.endpoint.utf8.count + 1 }
        return CBlock.make(count: endpoints.count, textCapacity: textCapacity) { index, cursor in
            let e = endpoints[index]
            return cf_endpoint_stats(
                endpoint: CBlock.put(e.endpoint, at: &cursor).start,
                requests: Int64(e.requests), errors: Int64(e.errors), bytes: Int64(e.bytes),
                cache_hits: Int64(e.cacheHits), retries: Int64(e.retries),
                avg_ms: e.avgMs ?? .nan, last_ms: e.lastMs ?? .nan, min_ms: e.minMs ?? .nan,
                max_ms: e.maxMs ?? .nan, p50_ms: e.p50Ms ?? .nan, p95_ms: e.p95Ms ?? .nan,
                p99_ms: e.p99Ms ?? .nan)
        } header: { items, _, _ in
            cf_endpoint_stats_array(count: Int64(endpoints.count), items: items)
        }
    }
}
