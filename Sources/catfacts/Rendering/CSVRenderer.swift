/// CSV (`set output csv`, `--csv`; RFC 4180, see ``CSV``): rows as a header row of their
/// columns' names then a record each (no header when they go on from rows printed before),
/// a record as a header row and a row of values; a report without data prints its lines.
struct CSVRenderer: Renderer {
    func render(_ report: Report) -> Rendition {
        switch report.data {
        case .rows(let rows)?:
            let header = rows.continued ? [] : [rows.columns.map(\.name)]
            return .records(header + rows.records.map { $0.map { $0 ?? "" } })
        case .record(let record)?:
            return .records([record.fields.map(\.name), record.fields.map { $0.value ?? "" }])
        case nil:
            return .lines(report.lines)
        }
    }
}
