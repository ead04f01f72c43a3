import CatFactsKit
import Foundation

/// Plain-text and JSON renderings of what `catfacts` prints.
enum Report {
    static func table(_ page: Page<Breed>) -> String {
        var lines = ["Breeds — page \(page.number) of \(page.lastPage), \(page.total) in all (source: \(page.source.rawValue))"]
        let absent = "—"
        let rows = page.items.enumerated().map { offset, breed in
            [String(page.firstIndex + offset + 1), breed.name, breed.country ?? absent, breed.origin ?? absent,
             breed.coat ?? absent, breed.pattern ?? absent]
        }
        lines += columns([["#", "Breed", "Country", "Origin", "Coat", "Pattern"]] + rows)
        return lines.joined(separator: "\n")
    }

    static func table(_ snapshot: MetricsSnapshot) -> String {
        let rows = snapshot.endpoints.map { e in
            [e.endpoint, String(e.requests), String(e.errors), ms(e.avgMs), ms(e.p50Ms), ms(e.p95Ms),
             ms(e.p99Ms), ms(e.lastMs), String(e.bytes)]
        }
        let s = snapshot.system
        var lines = ["", "Metrics"]
        lines += columns([["Endpoint", "Requests", "Errors", "Avg ms", "p50", "p95", "p99", "Last", "Bytes"]] + rows)
        lines += [
            "Device  \(s.device.make) \(s.device.model) (\(s.device.arch), \(s.device.cpus) CPUs)",
            "OS      \(s.os.name) \(s.os.version), kernel \(s.os.kernel)",
            "Memory  \(mib(snapshot.memory.residentBytes)) in use, peak \(mib(snapshot.memory.peakResidentBytes))",
            "Online  \(snapshot.online ? "yes" : "no")",
        ]
        return lines.joined(separator: "\n")
    }

    static func json(_ page: Page<Breed>) -> String { JSONOutput.string(page) }

    private static func ms(_ value: Double) -> String { String(format: "%.1f", value) }
    private static func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }

    /// Left-aligned columns, padded to the widest cell.
    private static func columns(_ rows: [[String]]) -> [String] {
        guard let width = rows.first?.count else { return [] }
        let widths = (0..<width).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}
