extension CatFactsClient {
    /// Every breed, fetched at the largest page size the server allows, as a view queries
    /// run over. Fetched once per client; `refresh` fetches again. The view's prefix
    /// deny-list is kept in the client's cache (so a cache file carries it to the next
    /// process) and cleared when the fetched names differ from the ones it was made for.
    ///
    /// Page 1 says how many pages there are; the rest are fetched ``catalogWindow`` at a
    /// time (the catalog needs every page, so this costs no request more than one by one,
    /// and a slow server's latency is paid once per window, not once per page), as one call:
    /// they share the deadline, and the first failure cancels the others.
    public func breedCatalog(refresh: Bool = false) async throws(CatFactsError) -> BreedCatalogView {
        if !refresh, let view = catalogView.withLock({ $0 }) { return view }
        let (breeds, source) = try await asOneCall(everyBreed)
        let view = BreedCatalogView(breeds: breeds, source: source, store: store)
        catalogView.withLock { $0 = view }
        return view
    }

    /// Requests in flight at once while the catalog's pages are fetched (a browser opens six
    /// connections per host).
    static let catalogWindow = 6

    /// Every breed in the server's order, and the least fresh source among the pages.
    private func everyBreed() async throws(CatFactsError) -> ([Breed], Source) {
        let first = try await breedsPage(1, limit: Self.walkPageSize)
        var breeds = first.items
        var source = first.source
        guard !first.items.isEmpty, first.lastPage > 1 else { return (breeds, source) }
        let last = first.lastPage
        var failure: CatFactsError?
        await withTaskGroup(of: (Int, Result<Page<Breed>, CatFactsError>).self) { group in
            var next = 2, wanted = 2
            var arrived: [Int: Page<Breed>] = [:]
            // At most a window of pages beyond the one awaited, so a slow page holds back
            // only a window's worth of others.
            func fill() {
                while next <= last, next < wanted + Self.catalogWindow {
                    let number = next
                    next += 1
                    group.addTask { [self] in
                        do throws(CatFactsError) {
                            return (number, .success(try await breedsPage(number, limit: Self.walkPageSize)))
                        } catch {
                            return (number, .failure(error))
                        }
                    }
                }
            }
            fill()
            while let (number, result) = await group.next() {
                switch result {
                case .failure(let error):
                    failure = error
                    group.cancelAll()
                    return
                case .success(let page):
                    arrived[number] = page
                }
                while let page = arrived.removeValue(forKey: wanted) {
                    breeds += page.items
                    source = max(source, page.source)
                    wanted += 1
                }
                fill()
            }
        }
        if let failure { throw failure }
        return (breeds, source)
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
