/// The client's collections as windowed lists: each list is given a loader that asks the
/// client for a page (without read-ahead: the list prefetches by its own window).
extension CatFactsClient {
    /// The breeds as a windowed list (see ``PagedList``).
    public func breedList(_ options: PagingOptions = PagingOptions()) throws(CatFactsError) -> PagedList<Breed> {
        try PagedList(options: options) { page, limit throws(CatFactsError) in
            try await self.breedsPage(page, limit: limit)
        }
    }

    /// The facts (no longer than `maxLength`, when given) as a windowed list.
    public func factList(_ options: PagingOptions = PagingOptions(), maxLength: Int? = nil) throws(CatFactsError) -> PagedList<Fact> {
        if let maxLength, maxLength < 0 { throw .argument("max_length \(maxLength) is negative (0 means no limit)") }
        return try PagedList(options: options) { page, limit throws(CatFactsError) in
            try await self.factsPage(page, limit: limit, maxLength: maxLength)
        }
    }
}
