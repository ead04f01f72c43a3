import CatFactsKit

/// A page of a query's answer (`group`, `sort`, `filter`, `search`) as a report: its JSON,
/// its rows (a grouped answer's key first, as the `group` column), and for people a title
/// and one table, the groups under their headings, the grouped field left out.
enum QueryTable {
    /// Page `page` of the query titled `what`, tagged with `source` when not live.
    static func report(_ what: String, _ page: QueryPage, groupedBy field: Breed.Field?, source: Source?) -> Report {
        let grouped = page.groupCount != nil
        let columns = (grouped ? [BreedRows.groupColumn] : []) + BreedRows.dataColumns(omitting: field)
        let records = page.rows.map { row in
            (grouped ? [row.group] : []) + BreedRows.record(row.number, row.breed)
        }
        let rows = Rows(columns: columns, records: records,
                        grouping: grouped ? Rows.Grouping(column: 0, sizes: page.groupSizes) : nil)
        return Report(documents: [JSONDocument(page)], data: .rows(rows),
                      view: [.title(title(what, page), source: source), .table(rows)])
    }

    /// "Breeds by origin — page 1 of 10 (98 breeds in 12 groups)".
    static func title(_ what: String, _ page: QueryPage) -> String {
        let what = ControlEscapes.escaped(what)
        guard page.total > 0 else { return "\(what) — none" }
        let groups = page.groupCount.map { " in \($0) group" + ($0 == 1 ? "" : "s") } ?? ""
        let counted = "(\(count(page.total))\(groups))"
        guard page.lastPage > 1 else { return "\(what) \(counted)" }
        return "\(what) — page \(page.number) of \(page.lastPage) \(counted)"
    }

    /// "1 breed", "12 breeds", "none".
    private static func count(_ n: Int) -> String {
        n == 0 ? "none" : n == 1 ? "1 breed" : "\(n) breeds"
    }
}
