import CatFactsKit

/// Numbered breeds as rows: the number, then each field in the API's order.
enum BreedRows {
    /// What an absent field shows in a table.
    static let absent = TableRenderer.absent
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

    /// A table row: the number, then each field or "—" (what the screens of `scroll` draw).
    static func cells(_ number: Int, _ breed: Breed, fields: [Breed.Field] = fields) -> [String] {
        [String(number)] + fields.map { breed[$0].map(ControlEscapes.escaped) ?? absent }
    }

    /// The column of a grouped listing's key (`group FIELD`), before the number: one name
    /// whatever the field, never the field's own (which the rows already have: CSV readers
    /// keyed by name would drop or rename one). Tables show it as headings instead.
    static let groupColumn = Rows.Column("group", inTable: false)

    /// The columns as data: `number` (`#`), then the fields (a table leaves out `grouped`:
    /// its headings say it).
    static func dataColumns(omitting grouped: Breed.Field? = nil) -> [Rows.Column] {
        [Rows.Column("number", heading: "#", rightAligned: true, shrinks: false)]
            + fields.map { Rows.Column($0.rawValue, heading: header($0), isKey: $0 == .breed, inTable: $0 != grouped) }
    }

    /// A row: the number, then each field (`nil` when absent).
    static func record(_ number: Int, _ breed: Breed) -> [String?] {
        [String(number)] + fields.map { breed[$0] }
    }

    /// The numbered breeds as rows; `continued` when they go on from rows printed before.
    static func rows(_ numbered: [(number: Int, breed: Breed)], continued: Bool = false) -> Rows {
        Rows(columns: dataColumns(), records: numbered.map { record($0.number, $0.breed) }, continued: continued)
    }
}
