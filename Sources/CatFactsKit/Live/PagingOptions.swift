/// How a ``PagedList`` pages: how much it loads at a time, how far ahead and behind it
/// reaches, and how much it may hold.
public struct PagingOptions: Sendable, Equatable {
    /// Items per page requested from the server (default 25). If the server caps it lower,
    /// the list adopts the server's page size.
    public var pageSize: Int
    /// How many items on each side of the latest access must be loaded (default 2 × pageSize).
    public var prefetchDistance: Int
    /// The most items held at once (default 500); pages farthest from the latest access are
    /// dropped past it and load again when needed.
    public var maxCachedItems: Int

    /// Creates options; `prefetchDistance` defaults to twice the page size.
    public init(pageSize: Int = 25, prefetchDistance: Int? = nil, maxCachedItems: Int = 500) {
        self.pageSize = pageSize
        self.prefetchDistance = prefetchDistance ?? 2 * pageSize
        self.maxCachedItems = maxCachedItems
    }

    /// Checks the options make sense together: a window must fit in the cache, or the list
    /// would drop pages it has just prefetched.
    public func validate() throws(CatFactsError) {
        guard pageSize >= 1 else { throw .argument("page_size \(pageSize): a page holds at least 1 item") }
        guard prefetchDistance >= 0 else { throw .argument("prefetch_distance \(prefetchDistance) is negative") }
        let needed = pageSize + 2 * prefetchDistance
        guard maxCachedItems >= needed else {
            throw .argument("max_cached_items \(maxCachedItems) is below page_size + 2 × prefetch_distance (\(needed)): the list could not hold its own prefetch window")
        }
    }
}
