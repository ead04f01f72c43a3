import CatFactsKit

/// Plain (`set output plain`): tab-separated values without headings, for `cut` and `awk`.
/// The report's lines when it has any (what scripts read where it is not the data: `set`,
/// `help`, `metrics`), else a line per row, or a `name<TAB>value` line per field of a record.
struct PlainRenderer: Renderer {
    func render(_ report: Report) -> Rendition {
        guard report.lines.isEmpty else { return .lines(report.lines) }
        switch report.data {
        case .rows(let rows)?:
            return .lines(rows.records.map { $0.map { Self.field($0 ?? "") }.joined(separator: "\t") })
        case .record(let record)?:
            return .lines(record.fields.map { "\($0.name)\t\(Self.field($0.value ?? ""))" })
        case nil:
            return .lines([])
        }
    }

    /// `text` with tabs and newlines as spaces, so it stays one field of one line, and
    /// other control characters escaped.
    static func field(_ text: String) -> String {
        ControlEscapes.escaped(String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 }))
    }
}
