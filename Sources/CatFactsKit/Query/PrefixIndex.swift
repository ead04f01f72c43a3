import Synchronization

/// Breed names by folded prefix: the folded names sorted, searched by binary search.
/// Counts its probes (binary-search steps) so tests can see a search avoided.
final class PrefixIndex: Sendable {
    /// Folded name and the breed's position in the catalog, sorted by name.
    private let keys: [(key: String, position: Int)]
    private let probeCount = Mutex(0)

    init(names: [String]) {
        keys = names.enumerated().map { (TextFolding.fold($0.element), $0.offset) }
            .sorted { $0.key < $1.key || ($0.key == $1.key && $0.position < $1.position) }
    }

    /// Positions of the names starting with folded `prefix`, in name order, at most `limit`.
    func positions(withPrefix prefix: String, limit: Int) -> [Int] {
        var low = 0
        var high = keys.count
        var probes = 0
        while low < high {
            probes += 1
            let middle = (low + high) / 2
            if keys[middle].key < prefix { low = middle + 1 } else { high = middle }
        }
        probeCount.withLock { $0 += max(probes, 1) }
        var found: [Int] = []
        var index = low
        while index < keys.count, found.count < limit, keys[index].key.hasPrefix(prefix) {
            found.append(keys[index].position)
            index += 1
        }
        return found
    }

    /// Binary-search steps taken so far.
    var probes: Int { probeCount.withLock { $0 } }
}
