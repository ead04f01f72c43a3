/// A decoded page of breeds before the client adds its source and fetch time: the page's
/// numbers and its breeds in one ``BreedArena`` (what ``PageBody`` is for item values).
package struct BreedArenaPage: Sendable {
    package var currentPage: Int
    package var lastPage: Int
    package var perPage: Int
    package var total: Int
    package var arena: BreedArena
    /// Whether the fast path read the breeds (the API's exact shape), for tests and benchmarks.
    package var fastPath = false

    /// The page with its breeds made as values.
    package var body: PageBody<Breed> {
        PageBody(currentPage: currentPage, lastPage: lastPage, perPage: perPage, total: total, items: arena.breeds())
    }

    /// The page, when its numbers are ones a paginator sends (``PageBody/validated()``'s
    /// checks and words).
    func validated() throws(DecodeFailure) -> BreedArenaPage {
        try PageBody<Never>.validate(currentPage: currentPage, lastPage: lastPage, perPage: perPage, total: total,
                                     itemCount: arena.count)
        return self
    }
}
