/// Answers a ``BreedQuery`` over a catalog view: chooses by prefix (through the view's index
/// and deny-list), field values and fields present; sorts by a field in ``NaturalOrder``
/// (absent values last, ties by name, then server order); groups by a field; cuts at the limit.
struct BreedQueryEngine {
    let view: BreedCatalogView

    /// The breeds that `query` chooses, sorted, grouped and cut as it asks.
    @_optimize(size)  // once per query
    func answer(_ query: BreedQuery) -> BreedQueryResult {
        let breeds = view.breeds
        var chosen = view.positions(withPrefix: TextFolding.fold(query.search ?? ""), limit: .max)
        let wanted = query.whereValues.map { ($0.key, TextFolding.fold($0.value)) }
        chosen = chosen.filter { position in
            let breed = breeds[position]
            guard query.present.allSatisfy({ breed[$0] != nil }) else { return false }
            return wanted.allSatisfy { field, value in
                guard let text = breed[field] else { return false }
                return value.isEmpty || TextFolding.fold(text).containsUTF8(value)
            }
        }
        let sortField = query.sortBy ?? .breed
        // Keys made once per chosen breed, not per comparison; what is sorted is the chosen
        // breeds' indices into them (a word each, where tuples of a position and two keys
        // made a block of 40 bytes a breed at every query).
        let names = chosen.map(view.foldedName(at:))
        let sortKeys: [String?] = sortField == .breed ? names : chosen.map { breeds[$0][sortField].map(TextFolding.fold) }
        var order = Array(chosen.indices)
        order.sort { a, b in
            // Absent values last, whichever the direction; ties by name, then server order.
            switch (sortKeys[a], sortKeys[b]) {
            case (nil, nil): break
            case (nil, _): return false
            case (_, nil): return true
            case let (x?, y?):
                let c = NaturalOrder.compare(x, y)
                if c != 0 { return query.descending ? c > 0 : c < 0 }
            }
            let byName = NaturalOrder.compare(names[a], names[b])
            return byName != 0 ? byName < 0 : chosen[a] < chosen[b]
        }
        var sorted = order.map { chosen[$0] }
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
