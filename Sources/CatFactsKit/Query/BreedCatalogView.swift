/// Every breed, fetched once, with what queries need: folded names, a prefix index, and
/// the deny-list of prefixes that found nothing. Pure: it starts from the denials it is given
/// and reports each new one to whoever keeps them (the client files them in its cache under
/// the catalog's ``fingerprint``, so a changed catalog never inherits stale denials).
/// Queries are answered by ``BreedQueryEngine``.
public final class BreedCatalogView: Sendable {
    /// The breeds, in the server's order.
    public let breeds: [Breed]
    /// Names this catalog's set of breed names (see ``CatalogFingerprint``).
    public let fingerprint: String
    /// Where the breeds came from: the least fresh source among the pages read.
    public let source: Source
    private let index: PrefixIndex
    private let denied: Locked<PrefixDenyList>
    private let onDenied: (@Sendable (_ prefix: String, _ catalog: String) -> Void)?

    /// Builds the view and its index (O(n log n)), its deny-list in memory only.
    public convenience init(breeds: [Breed], source: Source = .network) {
        self.init(breeds: breeds, source: source, deniedPrefixes: { _ in [] }, onDenied: nil)
    }

    /// Builds the view and its index (O(n log n)), its deny-list starting with what
    /// `deniedPrefixes` gives for this catalog's fingerprint; `onDenied` hears each prefix
    /// denied from then on (on the searching thread: it must return at once).
    package init(breeds: [Breed], source: Source, deniedPrefixes: (_ catalog: String) -> [String],
                 onDenied: (@Sendable (_ prefix: String, _ catalog: String) -> Void)?) {
        self.breeds = breeds
        self.source = source
        // Through the buffer, each name is read in place: iterating the array would copy every
        // breed (five strings retained and released) to read one field.
        index = breeds.withUnsafeBufferPointer { breeds in
            PrefixIndex(names: breeds.indices.lazy.map { breeds[$0].breed })
        }
        fingerprint = CatalogFingerprint.of(index)
        self.onDenied = onDenied
        var list = PrefixDenyList()
        deniedPrefixes(fingerprint).forEach { list.deny($0) }
        denied = Locked(list)
    }

    /// Whether `prefix` (folded as searches fold it) is known to find nothing, so a search
    /// for it or any longer prefix answers without looking.
    package func denies(_ prefix: String) -> Bool {
        let folded = TextFolding.fold(prefix)
        return !folded.isEmpty && denied.withLock { $0.covers(folded) }
    }

    /// Breeds whose name starts with `prefix` (case- and diacritic-insensitive), in name
    /// order, at most `limit`.
    public func search(prefix: String, limit: Int = .max) -> [Breed] {
        positions(withPrefix: TextFolding.fold(prefix), limit: limit).map { breeds[$0] }
    }

    /// Positions of the breeds whose folded name starts with `folded`: all of them for an
    /// empty prefix, none without a search for a denied one; a prefix that finds nothing is
    /// denied (and reported to `onDenied`).
    func positions(withPrefix folded: String, limit: Int) -> [Int] {
        if folded.isEmpty { return Array(breeds.indices.prefix(limit)) }
        if denied.withLock({ $0.covers(folded) }) { return [] }
        let found = index.positions(withPrefix: folded, limit: limit)
        if found.isEmpty, limit > 0 {
            denied.withLock { $0.deny(folded) }
            onDenied?(folded, fingerprint)
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
