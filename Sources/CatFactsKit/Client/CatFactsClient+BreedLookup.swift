extension CatFactsClient {
    /// The breed named `name`, from the breeds this client has seen, or else by walking the
    /// breed list until it turns up (the API has no detail endpoint). Names match as
    /// everywhere in the library (``TextFolding/nameKey(_:)``): trimmed, case and accents
    /// folded, so "Ragdoll", "RagDoll" and "Ragdóll" are one breed.
    ///
    /// - Throws: ``CatFactsError/notFound(_:)`` when no breed has that name;
    ///   ``CatFactsError/argument(_:)`` for an empty name; the errors of ``breeds(page:limit:)``.
    public func breed(named name: String) async throws(CatFactsError) -> Breed {
        let key = TextFolding.nameKey(name)
        guard !key.isEmpty else { throw .argument("the breed name is empty") }
        if let known = knownBreeds.breed(forKey: key) {
            metrics.recordCacheHit(endpoint: Endpoint.breeds.path)
            return known
        }
        // A name past 64 characters is quoted cut, so a 1 MB name makes no 1 MB message.
        let shown = Breed.presence(name) ?? name
        let quoted = shown.count > 64 ? String(shown.prefix(64)) + "…" : shown
        let notFound = CatFactsError.notFound("no breed is named '\(quoted)'")
        if knownBreeds.isComplete {
            metrics.recordCacheHit(endpoint: Endpoint.breeds.path)
            throw notFound
        }
        var found: Breed?
        let complete = try await walkBreeds { page in
            // Names only, from the page's arena when it has one: the breed found is the one made.
            if let arena = page.arena {
                found = (0..<arena.count).first { TextFolding.nameKey(arena.name(at: $0)) == key }.map(arena.breed(at:))
            } else {
                found = page.items.first { TextFolding.nameKey($0.breed) == key }
            }
            return found == nil
        }
        if complete { knownBreeds.markComplete() }
        guard let found else { throw notFound }
        return found
    }

    /// Walks the breed list page by page, at the largest page size the server allows, as one
    /// call (its pages share the deadline), handing each page to `visit` until it returns
    /// `false` or the list ends.
    ///
    /// - Returns: whether the whole list was read from the server (not the cache or the
    ///   bundled catalog), so what was seen is every breed there is.
    func walkBreeds(_ visit: (Page<Breed>) -> Bool) async throws(CatFactsError) -> Bool {
        try await asOneCall { () async throws(CatFactsError) -> Bool in
            var number = 1
            while true {
                let page = try await breeds(page: number, limit: Self.walkPageSize)
                let last = page.count == 0 || number >= page.lastPage
                guard visit(page) else { return false }
                if last { return page.source == .network }
                number += 1
            }
        }
    }

    /// Page size when walking the whole breed list (the server caps it if it must).
    static let walkPageSize = 1000
}
