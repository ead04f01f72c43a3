/// Where the last paged listing was, so `next`, `prev`, `first` and `last` move from it.
struct PagePosition: Sendable, Equatable {
    /// What was listed.
    enum Kind: Sendable, Equatable {
        case breeds
        case facts(maxLength: Int?)
        /// `group`, `sort`, `filter` or `search`, paged over the whole answer.
        case query(QueryListing)
    }

    var kind: Kind
    /// The page shown, from 1.
    var page: Int
    /// The last page, as the server last said; `nil` when not known (after a page size change).
    var lastPage: Int?
}
