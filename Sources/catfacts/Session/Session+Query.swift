import CatFactsKit

/// A query listing `next`, `prev`, `first` and `last` page through: the query and its title.
struct QueryListing: Sendable, Equatable {
    var query: BreedQuery
    var title: String
}

/// Which part of a query's answer to show.
enum QueryPageChoice: Sendable, Equatable {
    /// Page N at the session's page size.
    case page(Int)
    /// Everything, on one page (`--all`).
    case all
}

extension Session {
    /// Answers `listing`'s query over every breed and prints the page `choice` asks for,
    /// numbered for `show N` and made the position `next` and `prev` move from.
    func runQuery(_ listing: QueryListing, _ choice: QueryPageChoice) async throws(ShellError) {
        let result = try await request { () async throws(CatFactsError) in try await client.query(listing.query) }
        let pageNumber: Int
        let size: Int?
        switch choice {
        case .page(let number):
            pageNumber = number
            size = settings.pageSize
        case .all:
            pageNumber = 1
            size = nil
        }
        let page = QueryPage(result, page: pageNumber, size: size)
        guard !page.rows.isEmpty || page.number == 1 else {
            throw ShellError("page \(page.number) is past the last page (\(page.lastPage))", advice: "last shows the last page")
        }
        noteUnlabelledResult()
        position = PagePosition(kind: .query(listing), page: page.number, lastPage: page.lastPage)
        number(page.rows.map { (number: $0.number, breed: $0.breed) })
        let grouped = page.groupCount != nil
        switch output {
        case .json:
            console.print(JSONOutput.string(page))
        case .csv:
            let header = grouped ? [listing.query.groupBy?.rawValue ?? "group"] + BreedRows.csvHeader : BreedRows.csvHeader
            console.printRecords([header] + page.rows.map { row in
                (grouped ? [row.group ?? ""] : []) + BreedRows.csv(row.number, row.breed)
            })
        case .plain:
            console.print(page.rows.map { row in
                (row.group.map { BreedRows.tabSafe($0) + "\t" } ?? "") + BreedRows.plain(row.number, row.breed)
            })
        case .table:
            console.print(console.style.bold(title(listing.title, page)) + offlineLabel)
            guard !page.rows.isEmpty else { return }
            if let field = listing.query.groupBy {
                console.print(groupTable(page, omitting: field))
            } else {
                console.print(BreedRows.table(page.rows.map { (number: $0.number, breed: $0.breed) }, width: width,
                                              style: console.style))
            }
        }
    }

    /// "Breeds by origin — page 1 of 10 (98 breeds in 12 groups)".
    private func title(_ what: String, _ page: QueryPage) -> String {
        let what = ControlEscapes.escaped(what)
        guard page.total > 0 else { return "\(what) — none" }
        let groups = page.groupCount.map { " in \($0) group" + ($0 == 1 ? "" : "s") } ?? ""
        let counted = "(\(count(page.total))\(groups))"
        guard page.lastPage > 1 else { return "\(what) \(counted)" }
        return "\(what) — page \(page.number) of \(page.lastPage) \(counted)"
    }

    /// One table for the page's groups, a heading before each (its key and its size in the
    /// whole answer), the grouped field left out (the heading says it).
    private func groupTable(_ page: QueryPage, omitting field: Breed.Field) -> [String] {
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
        return Table(columns: BreedRows.columns(fields), lines: lines).render(width: width, style: console.style)
    }

    /// "1 breed", "12 breeds", "none".
    private func count(_ n: Int) -> String {
        n == 0 ? "none" : n == 1 ? "1 breed" : "\(n) breeds"
    }
}
