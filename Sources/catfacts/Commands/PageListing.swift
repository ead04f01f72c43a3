import CatFactsKit

/// A page of breeds or facts as the server pages them (`breeds`, `facts`, and `next`,
/// `prev`, `first`, `last` after them; a query's pages are ``QueryListing``'s).
enum PageListing {
    /// Fetches page `page` of `kind` at the session's page size and prints it.
    static func show(_ kind: PagePosition.Kind, _ page: Int, in session: isolated Session) async throws(ShellError) {
        let size = session.settings.pageSize
        let client = session.client
        let output = session.output
        switch kind {
        case .query(let listing):
            try await QueryListing.show(listing, .page(page), in: session)
        case .breeds:
            let result = try await session.request { () async throws(CatFactsError) in try await client.breeds(page: page, limit: size) }
            try accept(result, kind: kind, in: session)
            let rows = result.items.enumerated().map { (number: result.firstIndex + $0.offset + 1, breed: $0.element) }
            session.number(rows)
            let listed = BreedRows.rows(rows)
            output.show(Report(documents: [JSONDocument(result)], data: .rows(listed),
                               view: [.title(title("Breeds", result), source: result.source), .table(listed)]))
        case .facts(let maxLength):
            let result = try await session.request { () async throws(CatFactsError) in
                try await client.facts(page: page, limit: size, maxLength: maxLength)
            }
            try accept(result, kind: kind, in: session)
            let rows = result.items.enumerated().map { (number: result.firstIndex + $0.offset + 1, fact: $0.element) }
            let listed = FactRows.rows(rows)
            output.show(Report(documents: [JSONDocument(result)], data: .rows(listed),
                               view: [.title(title("Facts", result), source: result.source), .wrapped(listed)]))
        }
    }

    /// Shows the page after (`step` 1) or before (`step` -1) the current one, or says why
    /// there is none.
    static func turn(by step: Int, in session: isolated Session) async throws(ShellError) {
        let position = try session.currentPosition()
        if step > 0, let last = position.lastPage, position.page >= last {
            throw ShellError("already on the last page (\(last))", advice: "first goes back to page 1")
        }
        if step < 0, position.page <= 1 { throw ShellError("already on the first page", advice: "next goes forward") }
        try await show(position.kind, position.page + step, in: session)
    }

    /// The last page of `kind`, learnt from its first page.
    static func lastPage(of kind: PagePosition.Kind, in session: isolated Session) async throws(ShellError) -> Int {
        let size = session.settings.pageSize
        let client = session.client
        switch kind {
        case .query(let listing):
            let result = try await session.request { () async throws(CatFactsError) in try await client.query(listing.query) }
            return QueryPage(result, page: 1, size: size).lastPage
        case .breeds:
            return try await session.request { () async throws(CatFactsError) in try await client.breeds(page: 1, limit: size) }.lastPage
        case .facts(let maxLength):
            return try await session.request { () async throws(CatFactsError) in
                try await client.facts(page: 1, limit: size, maxLength: maxLength)
            }.lastPage
        }
    }

    /// Makes `page` the current position, or fails for a page past the end.
    private static func accept<Item>(_ page: Page<Item>, kind: PagePosition.Kind, in session: isolated Session) throws(ShellError) {
        guard !page.items.isEmpty || page.number == 1 else { throw ShellError.pastLastPage(page.number, page.lastPage) }
        session.position = PagePosition(kind: kind, page: page.number, lastPage: page.lastPage)
        session.note(page.source)
    }

    /// "Breeds — page 2 of 10 (98 in all)".
    private static func title<Item>(_ what: String, _ page: Page<Item>) -> String {
        guard page.total > 0 else { return "\(what) — none" }
        return "\(what) — page \(page.number) of \(page.lastPage) (\(page.total) in all)"
    }
}
