/// A decoded page before the client adds its source and fetch time: the page's numbers and
/// its items in one arena (what ``PageBody`` is for item values).
package struct ArenaPage<Arena: ItemArena>: Sendable {
    package var currentPage: Int
    package var lastPage: Int
    package var perPage: Int
    package var total: Int
    package var arena: Arena
    /// Whether the fast path read the items (the API's exact shape), for tests and benchmarks.
    package var fastPath = false

    /// The page with its items made as values.
    package var body: PageBody<Arena.Item> {
        PageBody(currentPage: currentPage, lastPage: lastPage, perPage: perPage, total: total, items: arena.items())
    }

    /// The page, when its numbers are ones a paginator sends (``PageBody/validated()``'s
    /// checks and words).
    func validated() throws(DecodeFailure) -> ArenaPage {
        try PageBody<Never>.validate(currentPage: currentPage, lastPage: lastPage, perPage: perPage, total: total,
                                     itemCount: arena.count)
        return self
    }
}

/// A page of breeds decoded into a ``BreedArena``.
package typealias BreedArenaPage = ArenaPage<BreedArena>

/// A page of facts decoded into a ``FactArena``.
package typealias FactArenaPage = ArenaPage<FactArena>
