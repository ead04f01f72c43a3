import CatFactsKit

/// The metrics as a table per endpoint, then the device, OS, memory, online state and cache.
enum MetricsView {
    /// The table and the facts below it, fitted to `width`. `online` says the state in words.
    static func lines(_ snapshot: MetricsSnapshot, online: String, width: Int, style: Style) -> [String] {
        var lines: [String] = []
        if snapshot.endpoints.isEmpty {
            lines.append(style.dim("No requests yet."))
        } else {
            let headers = ["Endpoint", "Requests", "Errors", "Retries", "Avg ms", "p50", "p95", "p99", "Last"]
            let columns = headers.enumerated().map { index, header in
                Table.Column(header, rightAligned: index > 0, shrinks: index == 0)
            }
            let rows = snapshot.endpoints.map { e in
                Table.Line.cells([e.endpoint, String(e.requests), String(e.errors), String(e.retries),
                                  ms(e.avgMs), ms(e.p50Ms), ms(e.p95Ms), ms(e.p99Ms), ms(e.lastMs)])
            }
            lines += Table(columns: columns, lines: rows).render(width: width, style: style)
        }
        let system = snapshot.system
        // Each fact with the warnings that go under it, wrapped, not truncated: the end of a
        // cache warning names the file moved aside.
        let facts: [(String, String, [String])] = [
            ("Device", "\(system.device.make) \(system.device.model) (\(system.device.arch), \(system.device.cpus) CPUs)", []),
            ("OS", "\(system.os.name) \(system.os.version), kernel \(system.os.kernel)", []),
            ("Memory", "\(mib(snapshot.memory.residentBytes)) in use, peak \(mib(snapshot.memory.peakResidentBytes))", []),
            ("Online", online, []),
            ("Cache", cacheSummary(snapshot.cache), snapshot.cache?.warnings ?? []),
            ("Export", exportSummary(snapshot.export), snapshot.export?.warnings ?? []),
        ]
        lines.append("")
        for (name, value, warnings) in facts {
            let text = DisplayWidth.truncate(value, to: max(Table.minimumWidth, width - 8))
            lines.append(style.bold(DisplayWidth.pad(name, to: 6)) + "  " + text)
            for warning in warnings {
                let wrapped = TextWrap.lines("warning: " + warning, width: max(Table.minimumWidth, width - 8))
                lines += wrapped.map { String(repeating: " ", count: 8) + $0 }
            }
        }
        return lines
    }

    /// Whether the server is reached, in words, for the table's Online line.
    static func online(server: ServerInfo, lastRequestReached: Bool?) -> String {
        switch (server.offline, lastRequestReached) {
        case (true, _): "no (--offline: nothing is sent)"
        case (false, nil): "not known yet (no request sent)"
        case (false, true?): "yes"
        case (false, false?): server.fallback ? "no (answering from the bundled offline catalog)" : "no"
        }
    }

    /// The cache in a line: where it lives, how full, how useful, what failed.
    static func cacheSummary(_ cache: CacheState?) -> String {
        guard let cache else { return "off" }
        return "\(cache.path ?? "in memory"): \(cache.entries) page\(cache.entries == 1 ? "" : "s"), "
            + "\(size(cache.bytes)) of \(size(cache.maxBytes)), \(cache.hits) hit\(cache.hits == 1 ? "" : "s"), "
            + "\(cache.writesFailed) write\(cache.writesFailed == 1 ? "" : "s") failed, \(cache.evictedEntries) evicted"
    }

    /// The OTLP exporter in a line: "on → URL, sent N, dropped N, failures N", or "off".
    static func exportSummary(_ export: ExportState?) -> String {
        guard let export, let endpoint = export.endpoint else { return "off" }
        return "on → \(endpoint), sent \(export.sent), dropped \(export.dropped), failures \(export.failures)"
    }

    /// Tab-separated: a line per endpoint (`endpoint requests errors retries avg p50 p95 p99
    /// last`, a time "—" when nothing was measured), then `device`, `os`, `memory` (resident
    /// and peak bytes) and `online` lines: a fixed set scripts read (the cache's state is in
    /// `metrics --json`, its warnings in `source`).
    static func plain(_ snapshot: MetricsSnapshot, online: Bool) -> [String] {
        var lines = snapshot.endpoints.map { e in
            [e.endpoint, String(e.requests), String(e.errors), String(e.retries),
             ms(e.avgMs), ms(e.p50Ms), ms(e.p95Ms), ms(e.p99Ms), ms(e.lastMs)].joined(separator: "\t")
        }
        let system = snapshot.system
        lines.append(["device", system.device.make, system.device.model, system.device.arch, String(system.device.cpus)].map(BreedRows.tabSafe).joined(separator: "\t"))
        lines.append(["os", system.os.name, system.os.version, system.os.kernel].map(BreedRows.tabSafe).joined(separator: "\t"))
        lines.append("memory\t\(snapshot.memory.residentBytes)\t\(snapshot.memory.peakResidentBytes)")
        lines.append("online\t\(online ? "yes" : "no")")
        return lines
    }

    /// The endpoints as CSV records, a header row first; times in milliseconds, an empty field
    /// where nothing was measured (CSV's missing value: a spreadsheet keeps the column numeric).
    static func csv(_ snapshot: MetricsSnapshot) -> [[String]] {
        func ms(_ value: Double?) -> String { value.map(oneDecimal) ?? "" }
        return [["endpoint", "requests", "errors", "retries", "avg_ms", "p50_ms", "p95_ms", "p99_ms", "last_ms"]]
            + snapshot.endpoints.map { e in
                [e.endpoint, String(e.requests), String(e.errors), String(e.retries),
                 ms(e.avgMs), ms(e.p50Ms), ms(e.p95Ms), ms(e.p99Ms), ms(e.lastMs)]
            }
    }

    /// A time to one decimal; "—" when nothing was measured (no response yet), never a 0.0
    /// that reads as a 0 ms response.
    private static func ms(_ value: Double?) -> String { value.map(oneDecimal) ?? noData }
    /// What a time with nothing measured shows, in the table and the plain lines.
    private static let noData = "—"
    private static func mib(_ bytes: Int) -> String { oneDecimal(Double(bytes) / 1_048_576) + " MiB" }
    /// KiB below a MiB, else MiB: a cache's few pages and its cap of tens of MiB both read well.
    private static func size(_ bytes: Int) -> String {
        bytes < 1_048_576 ? oneDecimal(Double(bytes) / 1024) + " KiB" : mib(bytes)
    }

    /// `value` rounded to one decimal, as `%.1f` writes it.
    private static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        let tenths = Int((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }
}
