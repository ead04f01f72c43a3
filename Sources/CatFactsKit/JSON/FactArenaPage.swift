/// A decoded page of facts before the client adds its source and fetch time: the page's
/// numbers and its facts in one ``FactArena`` (what ``BreedArenaPage`` is for breeds).
package struct FactArenaPage: Sendable {
    package var currentPage: Int
    package var lastPage: Int
    package var perPage: Int
    package var total: Int
    package var arena: FactArena
    /// Whether the fast path read the facts (the API's exact shape), for tests and benchmarks.
    package var fastPath = false

    /// The page with its facts made as values.
    package var body: PageBody<Fact> {
        PageBody(currentPage: currentPage, lastPage: lastPage, perPage: perPage, total: total, items: arena.facts())
    }

    /// The page, when its numbers are ones a paginator sends (``PageBody/validated()``'s
    /// checks and words).
    func validated() throws(DecodeFailure) -> FactArenaPage {
        try PageBody<Never>.validate(currentPage: currentPage, lastPage: lastPage, perPage: perPage, total: total,
                                     itemCount: arena.count)
        return self
    }
}
