import CatFactsKit

/// Numbered breeds as table lines or tab-separated lines.
enum BreedRows {
    /// What an absent field shows in a table.
    static let absent = "—"
    /// The columns after the number, in the API's order.
    static let fields = Breed.Field.allCases

    /// The table's column headers for `fields`; the name is the key, cut last.
    static func columns(_ fields: [Breed.Field]) -> [Table.Column] {
        [Table.Column("#", rightAligned: true, shrinks: false)]
            + fields.map { Table.Column(header($0), isKey: $0 == .breed) }
    }

    /// "Breed", "Country", ...
    static func header(_ field: Breed.Field) -> String {
        field.rawValue.prefix(1).uppercased() + field.rawValue.dropFirst()
    }

    /// A table row: the number, then each field or "—".
    static func cells(_ number: Int, _ breed: Breed, fields: [Breed.Field] = fields) -> [String] {
        [String(number)] + fields.map { breed[$0].map(ControlEscapes.escaped) ?? absent }
    }

    /// The CSV column of a grouped listing's key (`group FIELD`), before ``csvHeader``: one
    /// name whatever the field, never the field's own (which ``csvHeader`` already has).
    static let groupColumn = "group"

    /// The CSV header row: `number`, then the field names.
    static let csvHeader = ["number"] + fields.map(\.rawValue)

    /// A CSV record: the number, then each field (empty when absent).
    static func csv(_ number: Int, _ breed: Breed) -> [String] {
        [String(number)] + fields.map { breed[$0] ?? "" }
    }

    /// The numbered breeds as a table fitted to `width`.
    static func table(_ rows: [(number: Int, breed: Breed)], width: Int, style: Style) -> [String] {
        Table(columns: columns(fields), lines: rows.map { .cells(cells($0.number, $0.breed)) })
            .render(width: width, style: style)
    }

    /// A tab-separated line: the number, then each field (empty when absent).
    static func plain(_ number: Int, _ breed: Breed) -> String {
        ([String(number)] + fields.map { breed[$0] ?? "" }).map(tabSafe).joined(separator: "\t")
    }

    /// `text` with tabs and newlines as spaces, so it stays one field of one line, and
    /// other control characters escaped.
    static func tabSafe(_ text: String) -> String {
        ControlEscapes.escaped(String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 }))
    }
}
