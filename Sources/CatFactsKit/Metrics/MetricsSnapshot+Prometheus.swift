/// The metrics in the Prometheus text exposition format (0.0.4), for scraping or pasting
/// into a dashboard, named by Prometheus' conventions: prefixed `catfacts_`, base units
/// (`_seconds`, `_bytes`), counters ending in `_total`, request times as a histogram with
/// Prometheus' default buckets. `promtool check metrics` passes on it (a test runs it).
extension MetricsSnapshot {
    @_optimize(size)
    public func prometheus() -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            out += "# HELP catfacts_\(name) \(help)\n# TYPE catfacts_\(name) \(type)\n"
            for sample in samples { out += "catfacts_\(name)\(sample.labels) \(sample.value)\n" }
        }
        func label(_ endpoint: String, _ extra: String = "") -> String {
            "{endpoint=\"\(Self.escape(endpoint))\"\(extra)}"
        }
        func each(_ value: (EndpointMetrics) -> String) -> [(labels: String, value: String)] {
            endpoints.map { (label($0.endpoint), value($0)) }
        }
        family("requests_total", "counter", "Requests sent, retries included.", each { String($0.requests) })
        family("request_errors_total", "counter", "Requests that failed.", each { String($0.errors) })
        family("retries_total", "counter", "Requests sent again after a failure.", each { String($0.retries) })
        family("cache_hits_total", "counter", "Calls answered without a request.", each { String($0.cacheHits) })
        family("received_bytes_total", "counter", "Response body bytes received.", each { String($0.bytes) })
        family("request_duration_seconds", "histogram",
               "Wall time from sending a request to having its whole body (requests that got a response).", [])
        for e in endpoints {
            let name = "catfacts_request_duration_seconds"
            for (bound, count) in zip(EndpointMetrics.durationBucketBounds, e.durationBuckets) {
                out += "\(name)_bucket\(label(e.endpoint, ",le=\"\(Self.number(bound))\"")) \(count)\n"
            }
            out += "\(name)_bucket\(label(e.endpoint, ",le=\"+Inf\"")) \(e.timedRequests)\n"
            out += "\(name)_sum\(label(e.endpoint)) \(Self.number(e.totalMs / 1000))\n"
            out += "\(name)_count\(label(e.endpoint)) \(e.timedRequests)\n"
        }
        family("resident_memory_bytes", "gauge", "Resident memory of the process.", [("", String(memory.residentBytes))])
        family("peak_resident_memory_bytes", "gauge", "Peak resident memory of the process.",
               [("", String(memory.peakResidentBytes))])
        family("online", "gauge", "1 while the client is online; 0 while offline after calls in a row got no response.",
               [("", online ? "1" : "0")])
        if let cache {
            family("cache_entries", "gauge", "Pages in the cache.", [("", String(cache.entries))])
            family("cache_bytes", "gauge", "Bytes the cached pages take, as the size cap counts them.", [("", String(cache.bytes))])
            family("cache_max_bytes", "gauge", "The cache's size cap (cache_max_bytes).", [("", String(cache.maxBytes))])
            family("cache_writes_failed_total", "counter", "Cache writes that failed (disk full, read-only, ...).",
                   [("", String(cache.writesFailed))])
            family("cache_evicted_entries_total", "counter", "Pages evicted to keep the cache within its size cap.",
                   [("", String(cache.evictedEntries))])
            family("cache_evicted_bytes_total", "counter", "Bytes of the pages evicted for the size cap.",
                   [("", String(cache.evictedBytes))])
            family("cache_warnings", "gauge", "Warnings the cache keeps (the metrics JSON has their text).",
                   [("", String(cache.warnings.count))])
        }
        if let export, export.endpoint != nil {
            family("export_sent_total", "counter", "Spans and metric data points the OTLP collector took.", [("", String(export.sent))])
            family("export_dropped_total", "counter", "Spans dropped past the export queue's bound.", [("", String(export.dropped))])
            family("export_failures_total", "counter", "OTLP export requests that failed.", [("", String(export.failures))])
            family("export_queued", "gauge", "Spans waiting to be exported.", [("", String(export.queued))])
        }
        let info = "{library_version=\"\(Self.escape(system.app.libraryVersion))\",os=\"\(Self.escape(system.os.name))\",os_version=\"\(Self.escape(system.os.version))\",arch=\"\(Self.escape(system.device.arch))\",model=\"\(Self.escape(system.device.model))\"}"
        family("info", "gauge", "The library, OS and device.", [(info, "1")])
        return out
    }

    /// A label value with `\`, `"` and newlines escaped as the format requires.
    private static func escape(_ text: String) -> String {
        // By scalar: "\r\n" is one Character, and its "\n" must be escaped too.
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped.append(contentsOf: "\\\\".unicodeScalars)
            case "\"": escaped.append(contentsOf: "\\\"".unicodeScalars)
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
