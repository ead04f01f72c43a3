/// Rows of named columns, a listing as data: CSV prints a header row of the columns' names,
/// then a record per row; plain a tab-separated line per row; the table fits them to the
/// width under the columns' headings.
struct Rows: Sendable {
    /// A column: its name as data, its heading in a table, and how a table lays it out.
    struct Column: Sendable {
        /// The name in CSV's header row (`number`, `avg_ms`).
        var name: String
        /// The heading in a table (`#`, `Avg ms`).
        var heading: String
        var rightAligned = false
        /// Whether a table may narrow it (numbers never are: a cut number misleads).
        var shrinks = true
        /// The column that names the row (a breed's name): cut last.
        var isKey = false
        /// Whether a table shows it (a grouped listing's key is in its headings instead).
        var inTable = true

        /// A column named `name` in data and `heading` (default: `name`) in a table.
        init(_ name: String, heading: String? = nil, rightAligned: Bool = false, shrinks: Bool = true,
             isKey: Bool = false, inTable: Bool = true) {
            self.name = name
            self.heading = heading ?? name
            self.rightAligned = rightAligned
            self.shrinks = shrinks
            self.isKey = isKey
            self.inTable = inTable
        }
    }

    /// Rows grouped by the value of one column: a table puts a heading, the value and its
    /// group's size, before each group.
    struct Grouping: Sendable {
        /// The column holding each row's group.
        var column: Int
        /// The size of each group in the whole answer, by value.
        var sizes: [String: Int]
    }

    var columns: [Column]
    /// The values, a row each, in the columns' order; `nil` for an absent value (a table
    /// shows "—", CSV and plain an empty field).
    var records: [[String?]]
    var grouping: Grouping?
    /// The rows go on from rows printed before (`scroll` prints them as they arrive): no
    /// header row, no headings.
    var continued = false

    /// `records` under `columns`.
    init(columns: [Column], records: [[String?]], grouping: Grouping? = nil, continued: Bool = false) {
        self.columns = columns
        self.records = records
        self.grouping = grouping
        self.continued = continued
    }
}
