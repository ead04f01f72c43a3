/// What happened to a range of a ``PagedList``'s indices.
public struct PagingEvent: Sendable, Equatable {
    public enum Kind: Int32, Sendable {
        /// The items are loaded (`CF_EVENT_LOADED`).
        case loaded = 1
        /// Their page failed to load (`CF_EVENT_FAILED`).
        case failed = 2
        /// They were dropped to stay within `maxCachedItems` (`CF_EVENT_DROPPED`).
        case dropped = 3
    }

    public var kind: Kind
    /// The first index of the range.
    public var first: Int
    /// How many indices the range covers.
    public var count: Int
    /// The failure, for `.failed`.
    public var error: CatFactsError?

    /// The indices covered.
    public var range: Range<Int> { first..<(first + count) }
}
