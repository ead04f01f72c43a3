/// Every breed, fetched once, with what queries need: folded names, a prefix index, and
/// the deny-list of prefixes that found nothing. With a ``DeniedPrefixStore`` (the client's
/// cache), the deny-list is loaded from it and each denial saved to it, filed under the
/// catalog's ``fingerprint`` (so a changed catalog never inherits stale denials: opening its
/// view clears them). Queries are answered by ``BreedQueryEngine``.
public final class BreedCatalogView: Sendable {
    /// The breeds, in the server's order.
    public let breeds: [Breed]
    /// Names this catalog's set of breed names (see ``CatalogFingerprint``).
    public let fingerprint: String
    /// Where the breeds came from: the least fresh source among the pages read.
    public let source: Source
    private let index: PrefixIndex
    private let denied: Locked<PrefixDenyList>
    private let store: (any DeniedPrefixStore)?

    /// Builds the view and its index (O(n log n)), its deny-list in memory only.
    public convenience init(breeds: [Breed], source: Source = .network) {
        self.init(breeds: breeds, source: source, deniedPrefixes: nil)
    }

    /// Builds the view and its index (O(n log n)); with `store`, loads the prefixes denied
    /// for this catalog before (a store that cannot be read starts empty: the store reports
    /// its own failures, as the cache's warnings).
    package init(breeds: [Breed], source: Source, deniedPrefixes store: (any DeniedPrefixStore)?) {
        self.breeds = breeds
        self.source = source
        // Through the buffer, each name is read in place: iterating the array would copy every
        // breed (five strings retained and released) to read one field.
        index = breeds.withUnsafeBufferPointer { breeds in
            PrefixIndex(names: breeds.indices.lazy.map { breeds[$0].breed })
        }
        fingerprint = CatalogFingerprint.of(index)
        self.store = store
        var list = PrefixDenyList()
        let saved = try? store?.deniedPrefixes(catalog: fingerprint)
        saved?.forEach { list.deny($0) }
        denied = Locked(list)
    }

    /// Binary-search steps the prefix index has taken (for tests: a denied prefix takes none).
    public var indexProbes: Int { index.probes }

    /// Breeds whose name starts with `prefix` (case- and diacritic-insensitive), in name
    /// order, at most `limit`.
    public func search(prefix: String, limit: Int = .max) -> [Breed] {
        positions(withPrefix: TextFolding.fold(prefix), limit: limit).map { breeds[$0] }
    }

    /// Positions of the breeds whose folded name starts with `folded`: all of them for an
    /// empty prefix, none without a search for a denied one; a prefix that finds nothing is
    /// denied (and saved when there is a store).
    func positions(withPrefix folded: String, limit: Int) -> [Int] {
        if folded.isEmpty { return Array(breeds.indices.prefix(limit)) }
        if denied.withLock({ $0.covers(folded) }) { return [] }
        let found = index.positions(withPrefix: folded, limit: limit)
        if found.isEmpty, limit > 0 {
            denied.withLock { $0.deny(folded) }
            try? store?.denyPrefix(folded, catalog: fingerprint)
        }
        return found
    }

    /// Answers `query` over these breeds (``BreedQueryEngine``).
    public func answer(_ query: BreedQuery) -> BreedQueryResult {
        BreedQueryEngine(view: self).answer(query)
    }

    /// The folded name of the breed at `position` (as the index holds it).
    func foldedName(at position: Int) -> String {
        index.foldedName(at: position)
    }
}
