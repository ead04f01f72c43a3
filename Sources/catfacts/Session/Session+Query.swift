import CatFactsKit

extension Session {
    /// Answers `query` over every breed and prints the answer, numbered for `show N`.
    func runQuery(_ query: BreedQuery, title: String) async throws(ShellError) {
        let result = try await request { () async throws(CatFactsError) in try await client.query(query) }
        noteUnlabelledResult()
        let breeds = result.breeds
        number(breeds.enumerated().map { (number: $0.offset + 1, breed: $0.element) })
        switch output {
        case .json:
            console.print(JSONOutput.string(result))
        case .plain:
            switch result {
            case .items(let items):
                console.print(items.enumerated().map { BreedRows.plain($0.offset + 1, $0.element) })
            case .groups(let groups):
                var number = 0
                console.print(groups.flatMap { group in
                    group.items.map { breed in
                        number += 1
                        return BreedRows.tabSafe(group.key) + "\t" + BreedRows.plain(number, breed)
                    }
                })
            }
        case .table:
            switch result {
            case .items(let items):
                console.print(console.style.bold("\(title) (\(count(items.count)))") + offlineLabel)
                if !items.isEmpty {
                    let rows = items.enumerated().map { (number: $0.offset + 1, breed: $0.element) }
                    console.print(BreedRows.table(rows, width: width, style: console.style))
                }
            case .groups(let groups):
                console.print(console.style.bold("\(title) (\(count(breeds.count)) in \(groups.count) groups)") + offlineLabel)
                guard let field = query.groupBy else { return }
                console.print(groupTable(groups, omitting: field))
            }
        }
    }

    /// One table for every group, a heading before each, the grouped field left out
    /// (the heading says it), numbered across the groups.
    private func groupTable(_ groups: [BreedGroup], omitting field: Breed.Field) -> [String] {
        let fields = BreedRows.fields.filter { $0 != field }
        var lines: [Table.Line] = []
        var number = 0
        for group in groups {
            lines.append(.heading("\(group.key) (\(group.items.count))"))
            for breed in group.items {
                number += 1
                lines.append(.cells(BreedRows.cells(number, breed, fields: fields)))
            }
        }
        return Table(columns: BreedRows.columns(fields), lines: lines).render(width: width, style: console.style)
    }

    /// "1 breed", "12 breeds", "none".
    private func count(_ n: Int) -> String {
        n == 0 ? "none" : n == 1 ? "1 breed" : "\(n) breeds"
    }
}
