import CatFactsKit

/// A query listing `next`, `prev`, `first` and `last` page through (`group`, `sort`,
/// `filter`, `search PREFIX`): the query and its title.
struct QueryListing: Sendable, Equatable {
    var query: BreedQuery
    var title: String

    /// Answers `listing`'s query over every breed and prints the page `choice` asks for,
    /// numbered for `show N` and made the position `next` and `prev` move from.
    static func show(_ listing: QueryListing, _ choice: QueryPageChoice, in session: isolated Session) async throws(ShellError) {
        let client = session.client
        let result = try await session.request { () async throws(CatFactsError) in try await client.query(listing.query) }
        let pageNumber: Int
        let size: Int?
        switch choice {
        case .page(let number):
            pageNumber = number
            size = session.settings.pageSize
        case .all:
            pageNumber = 1
            size = nil
        }
        let page = QueryPage(result, page: pageNumber, size: size)
        guard !page.rows.isEmpty || page.number == 1 else { throw ShellError.pastLastPage(page.number, page.lastPage) }
        session.noteUnlabelledResult()
        session.position = PagePosition(kind: .query(listing), page: page.number, lastPage: page.lastPage)
        session.number(page.rows.map { (number: $0.number, breed: $0.breed) })
        session.output.show(QueryTable.report(listing.title, page, groupedBy: listing.query.groupBy, source: session.offlineSource))
    }
}

/// Which part of a query's answer to show.
enum QueryPageChoice: Sendable, Equatable {
    /// Page N at the session's page size.
    case page(Int)
    /// Everything, on one page (`--all`).
    case all
}
