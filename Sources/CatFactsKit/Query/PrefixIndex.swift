/// Breed names by folded prefix, compact: every folded name (``TextFolding``) in one UTF-8
/// buffer, where each starts, and the positions sorted by name; a search is a binary search
/// over the sorted positions, comparing bytes in place.
///
/// For a million names of about 25 bytes this holds about 40 MB (the buffer, 8-byte starts,
/// 4-byte positions) and builds in a fraction of a second: no `String` per name is kept or
/// made, and the sort compares the first eight bytes as one integer before it looks further.
/// Counts its probes (binary-search steps) so tests can see a search avoided.
final class PrefixIndex: Sendable {
    /// The folded names, one after another.
    private let bytes: [UInt8]
    /// Name `i` is `bytes[starts[i]..<starts[i + 1]]`; `count + 1` entries.
    private let starts: [Int]
    /// Positions, ordered by folded name (bytewise), then by position. 32 bits: a catalog of
    /// four billion breeds would not fit in memory long before.
    private let sorted: [UInt32]
    private let probeCount = Locked(0)

    /// Indexes `names`, position `i` being the `i`th name.
    init(names: some Collection<String>) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(names.count + 1)
        for name in names {
            starts.append(bytes.count)
            TextFolding.appendFolded(name, to: &bytes)
        }
        starts.append(bytes.count)
        self.bytes = bytes
        self.starts = starts
        self.sorted = Self.sortedPositions(bytes: bytes, starts: starts)
    }

    /// How many names there are.
    var count: Int { starts.count - 1 }

    /// The folded name at `position`.
    func foldedName(at position: Int) -> String {
        String(decoding: bytes[starts[position]..<starts[position + 1]], as: UTF8.self)
    }

    /// Calls `body` with each folded name's bytes, in position order (for the catalog's
    /// fingerprint).
    func forEachFoldedName(_ body: (ArraySlice<UInt8>) -> Void) {
        for position in 0..<count { body(bytes[starts[position]..<starts[position + 1]]) }
    }

    /// Positions of the names starting with folded `prefix`, in name order, at most `limit`.
    func positions(withPrefix prefix: String, limit: Int) -> [Int] {
        let wanted = Array(prefix.utf8)
        var low = 0
        var high = sorted.count
        var probes = 0
        bytes.withUnsafeBufferPointer { buffer in
            wanted.withUnsafeBufferPointer { wanted in
                while low < high {
                    probes += 1
                    let middle = (low + high) / 2
                    if Self.compare(buffer, name: slice(Int(sorted[middle])), with: wanted) < 0 { low = middle + 1 } else { high = middle }
                }
            }
        }
        probeCount.withLock { $0 += max(probes, 1) }
        var found: [Int] = []
        var index = low
        while index < sorted.count, found.count < limit {
            let name = slice(Int(sorted[index]))
            guard name.count >= wanted.count, bytes[name.lowerBound..<name.lowerBound + wanted.count].elementsEqual(wanted) else { break }
            found.append(Int(sorted[index]))
            index += 1
        }
        return found
    }

    /// Binary-search steps taken so far.
    var probes: Int { probeCount.withLock { $0 } }

    private func slice(_ position: Int) -> Range<Int> {
        starts[position]..<starts[position + 1]
    }

    /// Bytewise order of name `name` (a range of `buffer`) against `other`: negative, 0, positive.
    private static func compare(_ buffer: UnsafeBufferPointer<UInt8>, name: Range<Int>,
                                with other: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(name.count, other.count)
        for offset in 0..<common {
            let a = buffer[name.lowerBound + offset], b = other[offset]
            if a != b { return a < b ? -1 : 1 }
        }
        return name.count - other.count
    }

    /// The positions sorted by name: first by the name's first eight bytes read as one
    /// big-endian integer (most pairs differ there), then bytewise, then by position.
    private static func sortedPositions(bytes: [UInt8], starts: [Int]) -> [UInt32] {
        let count = starts.count - 1
        guard count > 0 else { return [] }
        return bytes.withUnsafeBufferPointer { buffer in
            var keyed: [(head: UInt64, position: UInt32)] = (0..<count).map { position in
                var head: UInt64 = 0
                let start = starts[position], end = starts[position + 1]
                for offset in 0..<8 {
                    head = head << 8 | UInt64(start + offset < end ? buffer[start + offset] : 0)
                }
                return (head, UInt32(truncatingIfNeeded: position))
            }
            keyed.sort { a, b in
                if a.head != b.head { return a.head < b.head }
                let x = starts[Int(a.position)]..<starts[Int(a.position) + 1]
                let y = starts[Int(b.position)]..<starts[Int(b.position) + 1]
                let order = compare(buffer, name: x, with: UnsafeBufferPointer(rebasing: buffer[y]))
                return order != 0 ? order < 0 : a.position < b.position
            }
            return keyed.map(\.position)
        }
    }
}
