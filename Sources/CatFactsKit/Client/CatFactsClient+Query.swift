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
        let view: BreedCatalogView
        if let recorder = deniedPrefixes {
            let onDenied: @Sendable (String, String) -> Void = { prefix, catalog in recorder.record(prefix, catalog: catalog) }
            view = BreedCatalogView(breeds: breeds, source: source, deniedPrefixes: recorder.saved(catalog:), onDenied: onDenied)
        } else {
            view = BreedCatalogView(breeds: breeds, source: source)
        }
        catalogView.withLock { $0 = view }
        return view
    }

    /// Requests in flight at once while the catalog's pages are fetched (a browser opens six
    /// connections per host).
    static let catalogWindow = 6

    /// Every breed in the server's order, and the least fresh source among the pages.
    private func everyBreed() async throws(CatFactsError) -> ([Breed], Source) {
        let first = try await breedsPage(1, limit: Self.walkPageSize)
        guard !first.items.isEmpty, first.lastPage > 1 else { return (first.items, first.source) }
        let last = first.lastPage
        // Children answer with a struct: a child result of (Int, Result<...>) came back with
        // a garbage Int from release builds of Swift 6.3.1.
        let rest = await withTaskGroup(of: AskedPage.self, returning: Result<[Page<Breed>], CatFactsError>.self) { group in
            var pages: [Page<Breed>] = []
            var arrived: [Int: Page<Breed>] = [:]
            var next = 2
            while true {
                // At most a window of pages beyond the first one not yet arrived, so a slow
                // page holds back only a window's worth of others.
                while next <= last, next < pages.count + 2 + Self.catalogWindow {
                    let number = next
                    next += 1
                    group.addTask { [self] in
                        do throws(CatFactsError) {
                            return AskedPage(number: number, result: .success(try await breedsPage(number, limit: Self.walkPageSize)))
                        } catch {
                            return AskedPage(number: number, result: .failure(error))
                        }
                    }
                }
                guard let asked = await group.next() else {
                    // Every page 2...last, or a loud failure: never a catalog with pages missing.
                    guard pages.count == last - 1 else {
                        return .failure(.internal("the catalog's pages came back incomplete (\(pages.count + 1) of \(last))"))
                    }
                    return .success(pages)
                }
                switch asked.result {
                case .failure(let error):
                    group.cancelAll()
                    return .failure(error)
                case .success(let page):
                    arrived[asked.number] = page
                }
                while let page = arrived.removeValue(forKey: pages.count + 2) { pages.append(page) }
            }
        }
        var breeds = first.items
        var source = first.source
        for page in try rest.get() {
            breeds += page.items
            source = max(source, page.source)
        }
        return (breeds, source)
    }

    /// Returns once the prefixes its catalog views denied so far are in the cache.
    package func flushDeniedPrefixes() async {
        await deniedPrefixes?.flush()
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

/// A page of the catalog as a child task answers it: the number asked and how it went.
private struct AskedPage: Sendable {
    let number: Int
    let result: Result<Page<Breed>, CatFactsError>
}
