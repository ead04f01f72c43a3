import CatFactsKit

extension Session {
    /// The last paged listing, or an error saying to list something first.
    func currentPosition() throws(ShellError) -> PagePosition {
        guard let position else { throw ShellError("nothing is listed yet", advice: "breeds or facts lists a page") }
        return position
    }

    /// Sets the page size, re-cutting the current page so its first item stays in view.
    func changePageSize(to size: Int) {
        if let current = position {
            let firstIndex = (current.page - 1) * settings.pageSize
            position = PagePosition(kind: current.kind, page: firstIndex / size + 1, lastPage: nil)
        }
        settings.pageSize = size
        scrollList = nil
    }

    /// Fetches page `page` of `kind` at the session's page size and prints it.
    func showPage(_ kind: PagePosition.Kind, _ page: Int) async throws(ShellError) {
        let size = settings.pageSize
        switch kind {
        case .query(let listing):
            try await runQuery(listing, .page(page))
        case .breeds:
            let result = try await request { () async throws(CatFactsError) in try await client.breeds(page: page, limit: size) }
            try accept(result, kind: kind)
            let rows = result.items.enumerated().map { (number: result.firstIndex + $0.offset + 1, breed: $0.element) }
            number(rows)
            switch output {
            case .json: console.print(JSONOutput.string(result))
            case .csv: console.printRecords([BreedRows.csvHeader] + rows.map { BreedRows.csv($0.number, $0.breed) })
            case .plain: console.print(rows.map { BreedRows.plain($0.number, $0.breed) })
            case .table:
                console.print(title("Breeds", result))
                if !rows.isEmpty { console.print(BreedRows.table(rows, width: width, style: console.style)) }
            }
        case .facts(let maxLength):
            let result = try await request { () async throws(CatFactsError) in
                try await client.facts(page: page, limit: size, maxLength: maxLength)
            }
            try accept(result, kind: kind)
            let rows = result.items.enumerated().map { (number: result.firstIndex + $0.offset + 1, fact: $0.element) }
            switch output {
            case .json: console.print(JSONOutput.string(result))
            case .csv: console.printRecords([["number", "fact"]] + rows.map { [String($0.number), $0.fact.text] })
            case .plain: console.print(rows.map { FactRows.plain($0.number, $0.fact) })
            case .table:
                console.print(title("Facts", result))
                console.print(FactRows.list(rows, width: width, style: console.style))
            }
        }
    }

    /// The last page of `kind`, learnt from its first page.
    func lastPage(of kind: PagePosition.Kind) async throws(ShellError) -> Int {
        let size = settings.pageSize
        switch kind {
        case .query(let listing):
            let result = try await request { () async throws(CatFactsError) in try await client.query(listing.query) }
            return QueryPage(result, page: 1, size: size).lastPage
        case .breeds:
            return try await request { () async throws(CatFactsError) in try await client.breeds(page: 1, limit: size) }.lastPage
        case .facts(let maxLength):
            return try await request { () async throws(CatFactsError) in
                try await client.facts(page: 1, limit: size, maxLength: maxLength)
            }.lastPage
        }
    }

    /// Makes `page` the current position, or fails for a page past the end.
    private func accept<Item>(_ page: Page<Item>, kind: PagePosition.Kind) throws(ShellError) {
        guard !page.items.isEmpty || page.number == 1 else {
            throw ShellError("page \(page.number) is past the last page (\(page.lastPage))", advice: "last shows the last page")
        }
        position = PagePosition(kind: kind, page: page.number, lastPage: page.lastPage)
        note(page.source)
    }

    /// "Breeds — page 2 of 10 (98 in all)", with where it came from when not live.
    private func title<Item>(_ what: String, _ page: Page<Item>) -> String {
        let label = sourceLabel(page.source)
        guard page.total > 0 else { return console.style.bold("\(what) — none") + label }
        return console.style.bold("\(what) — page \(page.number) of \(page.lastPage) (\(page.total) in all)") + label
    }
}
