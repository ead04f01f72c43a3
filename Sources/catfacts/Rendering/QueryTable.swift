import CatFactsKit

/// A page of a query's answer as a table: its title, and the groups of `group` under
/// their headings.
enum QueryTable {
    /// "Breeds by origin — page 1 of 10 (98 breeds in 12 groups)".
    static func title(_ what: String, _ page: QueryPage) -> String {
        let what = ControlEscapes.escaped(what)
        guard page.total > 0 else { return "\(what) — none" }
        let groups = page.groupCount.map { " in \($0) group" + ($0 == 1 ? "" : "s") } ?? ""
        let counted = "(\(count(page.total))\(groups))"
        guard page.lastPage > 1 else { return "\(what) \(counted)" }
        return "\(what) — page \(page.number) of \(page.lastPage) \(counted)"
    }

    /// One table for the page's groups, a heading before each (its key and its size in the
    /// whole answer), the grouped field left out (the heading says it).
    static func grouped(_ page: QueryPage, omitting field: Breed.Field, width: Int, style: Style) -> [String] {
        let fields = BreedRows.fields.filter { $0 != field }
        var lines: [Table.Line] = []
        var current: String?
        for row in page.rows {
            if let key = row.group, key != current {
                current = key
                lines.append(.heading("\(ControlEscapes.escaped(key)) (\(page.groupSizes[key] ?? 0))"))
            }
            lines.append(.cells(BreedRows.cells(row.number, row.breed, fields: fields)))
        }
        return Table(columns: BreedRows.columns(fields), lines: lines).render(width: width, style: style)
    }

    /// "1 breed", "12 breeds", "none".
    private static func count(_ n: Int) -> String {
        n == 0 ? "none" : n == 1 ? "1 breed" : "\(n) breeds"
    }
}
