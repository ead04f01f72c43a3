import CatFactsKit

/// Tables for people (`set output table`, the default): the report's view laid out at
/// `width` and styled (titles bold, notes dim, data not live tagged in yellow), control
/// characters in values escaped; a report without a view prints its lines.
struct TableRenderer: Renderer {
    /// The width lines are fitted to (``Output/width``).
    let width: Int
    let style: Style

    /// What an absent value shows in a table.
    static let absent = "—"
    /// What an absent field of a record says.
    static let notGiven = "(not given)"

    func render(_ report: Report) -> Rendition {
        .lines(report.view.isEmpty ? report.lines : lines(report.view))
    }

    /// The lines of `view` (what `metrics --watch` redraws, too).
    func lines(_ view: [ViewBlock]) -> [String] {
        view.flatMap(lines(of:))
    }

    private func lines(of block: ViewBlock) -> [String] {
        switch block {
        case .title(let text, let source):
            return [style.bold(text) + label(source)]
        case .table(let rows):
            return rows.records.isEmpty ? [] : table(rows)
        case .wrapped(let rows):
            return wrapped(rows)
        case .streamed(let rows, let typicalWidths):
            return streamed(rows, typicalWidths: typicalWidths)
        case .fields(let fields):
            return self.fields(fields)
        case .note(let text):
            return [style.dim(text)]
        case .sourceTag(let source):
            return Self.tag(source, style: style).map { [$0] } ?? []
        case .lines(let lines):
            return lines
        }
    }

    /// "(offline catalog)" or "(cache)" for data that is not live from the server.
    static func tag(_ source: Source?, style: Style) -> String? {
        switch source {
        case .network?, nil: nil
        case .cache?: style.yellow("(cache)")
        case .offlineCatalog?: style.yellow("(offline catalog)")
        }
    }

    /// ``tag(_:style:)`` after a title, with a space before it; empty for live data.
    private func label(_ source: Source?) -> String {
        Self.tag(source, style: style).map { " " + $0 } ?? ""
    }

    /// A row's cells in the table's columns: values escaped, absent ones "—".
    private func cells(_ record: [String?], _ shown: [Int]) -> [String] {
        shown.map { $0 < record.count ? record[$0].map(ControlEscapes.escaped) ?? Self.absent : Self.absent }
    }

    private func tableColumns(_ rows: Rows) -> (indices: [Int], columns: [Table.Column]) {
        let indices = rows.columns.indices.filter { rows.columns[$0].inTable }
        return (indices, indices.map { index in
            let column = rows.columns[index]
            return Table.Column(column.heading, rightAligned: column.rightAligned, shrinks: column.shrinks, isKey: column.isKey)
        })
    }

    private func table(_ rows: Rows) -> [String] {
        let (shown, columns) = tableColumns(rows)
        var lines: [Table.Line] = []
        var group: String?
        for record in rows.records {
            if let grouping = rows.grouping, grouping.column < record.count, let key = record[grouping.column], key != group {
                group = key
                lines.append(.heading("\(ControlEscapes.escaped(key)) (\(grouping.sizes[key] ?? 0))"))
            }
            lines.append(.cells(cells(record, shown)))
        }
        return Table(columns: columns, lines: lines).render(width: width, style: style)
    }

    /// The last column wrapped with a hanging indent under the first, right-aligned (a
    /// number); a single column wrapped to the whole width.
    private func wrapped(_ rows: Rows) -> [String] {
        let numbered = rows.columns.count > 1
        let leads = rows.records.map { numbered ? ControlEscapes.escaped($0.first.flatMap { $0 } ?? "") : "" }
        let leadWidth = leads.map { DisplayWidth.of($0) }.max() ?? 1
        let indent = numbered ? leadWidth + Table.gap : 0
        let room = numbered ? max(20, width - indent) : width
        var lines: [String] = []
        for (record, lead) in zip(rows.records, leads) {
            let text = ControlEscapes.escaped(record.last.flatMap { $0 } ?? "")
            for (index, line) in TextWrap.lines(text, width: room).enumerated() {
                let start = index == 0 && numbered
                    ? DisplayWidth.pad(lead, to: leadWidth, right: true) + String(repeating: " ", count: Table.gap)
                    : String(repeating: " ", count: indent)
                lines.append(start + line)
            }
        }
        return lines
    }

    /// Off a terminal (and without `COLUMNS`) nothing is cut: a long value pushes its row right.
    private func streamed(_ rows: Rows, typicalWidths: [Int]) -> [String] {
        let (shown, columns) = tableColumns(rows)
        let layout = StreamingColumns(columns: columns, typicalWidths: typicalWidths, width: width,
                                      cutting: width < Output.unlimitedWidth)
        return (rows.continued ? [] : [layout.header(style: style)]) + rows.records.map { layout.row(cells($0, shown)) }
    }

    /// A line per field: the label bold and padded to the longest, the value cut to the rest
    /// of the width (or wrapped, its next lines indented), tagged when not live.
    private func fields(_ fields: [Record.Field]) -> [String] {
        let labelWidth = fields.map { DisplayWidth.of($0.label) }.max() ?? 0
        let room = max(Table.minimumWidth, width - labelWidth - Table.gap)
        let indent = String(repeating: " ", count: labelWidth + Table.gap)
        var lines: [String] = []
        for field in fields {
            let label = field.label.isEmpty
                ? indent
                : style.bold(DisplayWidth.pad(field.label, to: labelWidth)) + String(repeating: " ", count: Table.gap)
            guard let value = field.value.map(ControlEscapes.escaped) else {
                lines.append(label + style.dim(Self.notGiven) + self.label(field.source))
                continue
            }
            guard field.wraps else {
                lines.append(label + DisplayWidth.truncate(value, to: room) + self.label(field.source))
                continue
            }
            lines += TextWrap.lines(value, width: room).enumerated().map { index, line in
                (index == 0 ? label : indent) + line
            }
        }
        return lines
    }
}
