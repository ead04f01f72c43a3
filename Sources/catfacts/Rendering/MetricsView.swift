import CatFactsKit

/// The metrics: per endpoint, then the device, OS, memory, online state, cache and exporter.
enum MetricsView {
    /// The metrics as a report: the library's JSON; the endpoints as rows (times in
    /// milliseconds, none where nothing was measured); the fixed lines scripts read in plain
    /// (see ``plain(_:online:)``); for people, the endpoints' table then the device, OS,
    /// memory, online state, cache and exporter, each with its warnings.
    static func report(_ snapshot: MetricsSnapshot, server: ServerInfo, lastRequestReached: Bool?) -> Report {
        let rows = endpointRows(snapshot)
        let plainLines = plain(snapshot, online: !server.offline && lastRequestReached == true)
        return Report(documents: [JSONDocument { snapshot.json() }], data: .rows(rows), lines: plainLines,
                      view: view(snapshot, rows: rows, online: online(server: server, lastRequestReached: lastRequestReached)))
    }

    /// What people read: the endpoints' table, then each fact with the warnings that go
    /// under it, wrapped, not truncated (the end of a cache warning names the file moved aside).
    /// `online` says the state in words. (`metrics --watch` redraws it.)
    static func view(_ snapshot: MetricsSnapshot, rows: Rows, online: String) -> [ViewBlock] {
        let system = snapshot.system
        let facts: [(String, String, [String])] = [
            ("Device", "\(system.device.make) \(system.device.model) (\(system.device.arch), \(system.device.cpus) CPUs)", []),
            ("OS", "\(system.os.name) \(system.os.version), kernel \(system.os.kernel)", []),
            ("Memory", "\(mib(snapshot.memory.residentBytes)) in use, peak \(mib(snapshot.memory.peakResidentBytes))", []),
            ("Online", online, []),
            ("Cache", cacheSummary(snapshot.cache), snapshot.cache?.warnings ?? []),
            ("Export", exportSummary(snapshot.export), snapshot.export?.warnings ?? []),
        ]
        let fields = facts.flatMap { name, value, warnings in
            [Record.Field(name.lowercased(), label: name, value: value)]
                + warnings.map { Record.Field("warning", label: "", value: "warning: " + $0, wraps: true) }
        }
        return [rows.records.isEmpty ? .note("No requests yet.") : .table(rows), .lines([""]), .fields(fields)]
    }

    /// The endpoints as rows: requests, errors, retries, then the average, p50, p95, p99 and
    /// last times in milliseconds (absent where nothing was measured: never a 0.0 that reads
    /// as a 0 ms response; CSV's missing value keeps a spreadsheet's column numeric).
    static func endpointRows(_ snapshot: MetricsSnapshot) -> Rows {
        let names = [("endpoint", "Endpoint"), ("requests", "Requests"), ("errors", "Errors"), ("retries", "Retries"),
                     ("avg_ms", "Avg ms"), ("p50_ms", "p50"), ("p95_ms", "p95"), ("p99_ms", "p99"), ("last_ms", "Last")]
        let columns = names.enumerated().map { index, name in
            Rows.Column(name.0, heading: name.1, rightAligned: index > 0, shrinks: index == 0)
        }
        func ms(_ value: Double?) -> String? { value.map(oneDecimal) }
        return Rows(columns: columns, records: snapshot.endpoints.map { e in
            [e.endpoint, String(e.requests), String(e.errors), String(e.retries),
             ms(e.avgMs), ms(e.p50Ms), ms(e.p95Ms), ms(e.p99Ms), ms(e.lastMs)]
        })
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
        lines.append(["device", system.device.make, system.device.model, system.device.arch, String(system.device.cpus)].map(PlainRenderer.field).joined(separator: "\t"))
        lines.append(["os", system.os.name, system.os.version, system.os.kernel].map(PlainRenderer.field).joined(separator: "\t"))
        lines.append("memory\t\(snapshot.memory.residentBytes)\t\(snapshot.memory.peakResidentBytes)")
        lines.append("online\t\(online ? "yes" : "no")")
        return lines
    }

    /// A time to one decimal; "—" when nothing was measured (no response yet), never a 0.0
    /// that reads as a 0 ms response.
    private static func ms(_ value: Double?) -> String { value.map(oneDecimal) ?? noData }
    /// What a time with nothing measured shows in the plain lines (as in the table).
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
