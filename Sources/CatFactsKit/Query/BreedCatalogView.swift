
/// Every breed, fetched once, with what queries need: folded names, a prefix index, and
/// the deny-list of prefixes that found nothing. With a store, the deny-list is loaded from
/// it and each denial saved to it, filed under the catalog's ``fingerprint`` (so a changed
/// catalog never inherits stale denials: opening its view clears them).
public final class BreedCatalogView: Sendable {
    /// The breeds, in the server's order.
    public let breeds: [Breed]
    /// Names this catalog's set of breed names (see ``CatalogFingerprint``).
    public let fingerprint: String
    /// Where the breeds came from: the least fresh source among the pages read.
    public let source: Source
    private let index: PrefixIndex
    private let denied: Locked<PrefixDenyList>
    private let store: ResponseStore?

    /// Builds the view and its index (O(n log n)); with `store`, loads the prefixes denied
    /// for this catalog before (a store that cannot be read adds a warning and starts empty).
    public init(breeds: [Breed], source: Source = .network, store: ResponseStore? = nil) {
        self.breeds = breeds
        self.source = source
        // Through the buffer, each name is read in place: iterating the array would copy every
        // breed (five strings retained and released) to read one field.
        index = breeds.withUnsafeBufferPointer { breeds in
            PrefixIndex(names: breeds.indices.lazy.map { breeds[$0].name })
        }
        fingerprint = CatalogFingerprint.of(index)
        self.store = store
        var list = PrefixDenyList()
        let saved = store?.warnOnFailure { [fingerprint] () throws(CatFactsError) in
            try store?.deniedPrefixes(catalog: fingerprint) ?? []
        }
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
    private func positions(withPrefix folded: String, limit: Int) -> [Int] {
        if folded.isEmpty { return Array(breeds.indices.prefix(limit)) }
        if denied.withLock({ $0.covers(folded) }) { return [] }
        let found = index.positions(withPrefix: folded, limit: limit)
        if found.isEmpty, limit > 0 {
            denied.withLock { $0.deny(folded) }
            store?.warnOnFailure { [fingerprint] () throws(CatFactsError) in
                try store?.denyPrefix(folded, catalog: fingerprint)
            }
        }
        return found
    }

    /// Answers `query` over these breeds.
    @_optimize(size)  // once per query
    public func answer(_ query: BreedQuery) -> BreedQueryResult {
        var chosen = positions(withPrefix: TextFolding.fold(query.search ?? ""), limit: .max)
        let wanted = query.whereValues.map { ($0.key, TextFolding.fold($0.value)) }
        chosen = chosen.filter { position in
            let breed = breeds[position]
            guard query.present.allSatisfy({ breed[$0] != nil }) else { return false }
            return wanted.allSatisfy { field, value in
                guard let text = breed[field] else { return false }
                return value.isEmpty || TextFolding.fold(text).contains(value)
            }
        }
        let sortField = query.sortBy ?? .breed
        // Keys made once per chosen breed, not per comparison.
        let names = chosen.map(index.foldedName(at:))
        let sortKeys: [String?] = sortField == .breed ? names : chosen.map { breeds[$0][sortField].map(TextFolding.fold) }
        var order: [(position: Int, key: String?, name: String)] = chosen.indices.map { (chosen[$0], sortKeys[$0], names[$0]) }
        order.sort { a, b in
            // Absent values last, whichever the direction; ties by name, then server order.
            switch (a.key, b.key) {
            case (nil, nil): break
            case (nil, _): return false
            case (_, nil): return true
            case let (x?, y?):
                let c = NaturalOrder.compare(x, y)
                if c != 0 { return query.descending ? c > 0 : c < 0 }
            }
            let byName = NaturalOrder.compare(a.name, b.name)
            return byName != 0 ? byName < 0 : a.position < b.position
        }
        var sorted = order.map(\.position)
        guard let groupField = query.groupBy else {
            if let limit = query.limit { sorted = Array(sorted.prefix(limit)) }
            return .items(sorted.map { breeds[$0] })
        }
        // Groups keep the sorted order inside; the groups themselves ascend by their key.
        var groups: [String: (display: String, items: [Int])] = [:]
        for position in sorted {
            guard let value = breeds[position][groupField] else { continue }
            groups[TextFolding.fold(value), default: (value, [])].items.append(position)
        }
        var remaining = query.limit ?? .max
        var result: [BreedGroup] = []
        for folded in groups.keys.sorted(by: NaturalOrder.precedes) where remaining > 0 {
            guard let group = groups[folded] else { continue }
            let items = group.items.prefix(remaining).map { breeds[$0] }
            remaining -= items.count
            result.append(BreedGroup(key: group.display, items: items))
        }
        return .groups(result)
    }
}
