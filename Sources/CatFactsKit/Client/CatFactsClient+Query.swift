extension CatFactsClient {
    /// Every breed, fetched page by page at the largest page size the server allows, as a
    /// view queries run over. Fetched once per client; `refresh` fetches again. The view's
    /// prefix deny-list is kept in the client's cache (so a cache file carries it to the next
    /// process) and cleared when the fetched names differ from the ones it was made for.
    public func breedCatalog(refresh: Bool = false) async throws(CatFactsError) -> BreedCatalogView {
        if !refresh, let view = catalogView.withLock({ $0 }) { return view }
        var breeds: [Breed] = []
        var source = Source.network
        _ = try await walkBreeds { page in
            breeds += page.items
            source = max(source, page.source)
            return true
        }
        let view = BreedCatalogView(breeds: breeds, source: source, store: store)
        catalogView.withLock { $0 = view }
        return view
    }

    /// Answers `query` over every breed (see ``BreedQuery``).
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` for a negative limit; the errors of
    ///   ``breeds(page:limit:)`` while the catalog is fetched.
    public func query(_ query: BreedQuery) async throws(CatFactsError) -> BreedQueryResult {
        if let limit = query.limit, limit < 0 { throw .argument("limit \(limit) is negative") }
        return try await breedCatalog().answer(query)
    }
}
