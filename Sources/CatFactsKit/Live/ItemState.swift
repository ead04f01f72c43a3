/// What a ``PagedList`` can say about one index, without waiting.
public enum ItemState<Item: Sendable>: Sendable {
    /// The item is loaded.
    case loaded(Item)
    /// Its page is loading (this access may have started it).
    case pending
    /// Its page failed to load; it stays failed until ``PagedList/retry()``.
    case failed(CatFactsError)
    /// The index is at or past the end of the list (or negative).
    case pastEnd

    /// The item, when loaded.
    public var item: Item? {
        if case .loaded(let item) = self { item } else { nil }
    }

    /// The matching status: `.ok`, `.pending`, the error's, or `.notFound` past the end.
    public var status: Status {
        switch self {
        case .loaded: .ok
        case .pending: .pending
        case .failed(let error): error.status
        case .pastEnd: .notFound
        }
    }
}

extension ItemState: Equatable where Item: Equatable {}
