/// Breed names by folded prefix, compact: every folded name (``TextFolding``) in one UTF-8
/// buffer, where each starts, and the positions sorted by name; a search is a binary search
/// over the sorted positions, comparing bytes in place.
///
/// For a million names of about 27 bytes this holds about 40 MB (the buffer, 8-byte starts,
/// 4-byte positions) and builds in about a quarter of a second (BENCHMARKS.md): no `String`
/// per name is kept or made, and the sort is a radix sort over the bytes in place.
final class PrefixIndex: Sendable {
    /// The folded names, one after another.
    private let bytes: [UInt8]
    /// Name `i` is `bytes[starts[i]..<starts[i + 1]]`; `count + 1` entries.
    private let starts: [Int]
    /// Positions, ordered by folded name (bytewise), then by position. 32 bits: a catalog of
    /// four billion breeds would not fit in memory long before.
    private let sorted: [UInt32]

    /// Indexes `names`, position `i` being the `i`th name.
    init(names: some Collection<String>) {
        var bytes: [UInt8] = []
        // Folding keeps an ASCII name's length and rarely changes another's: reserved once,
        // the buffer is not copied as it grows (each copy would leave its old block behind).
        bytes.reserveCapacity(names.reduce(0) { $0 &+ $1.utf8.count })
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
        bytes.withUnsafeBufferPointer { buffer in
            wanted.withUnsafeBufferPointer { wanted in
                while low < high {
                    let middle = (low + high) / 2
                    if Self.compare(buffer, name: slice(Int(sorted[middle])), with: wanted) < 0 { low = middle + 1 } else { high = middle }
                }
            }
        }
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

    /// The positions sorted by name (bytewise, then by position). A most-significant-byte
    /// radix sort: a run of positions whose names are equal up to some depth is split by
    /// the byte at that depth into buckets, counted then moved stably (names that end there
    /// first), and each bucket goes on one byte deeper; a run of at most `sortedRunSize`
    /// names is instead sorted by sixteen bytes at a time, compared as integers
    /// (``ChunkKey``), its runs of names still equal going on sixteen bytes deeper. Names
    /// are read in position order within a bucket, no pair is compared byte by byte, and
    /// the scratch space is one array of positions; runs wait on a list, not on the stack,
    /// so names sharing a long prefix cannot overflow it.
    private static func sortedPositions(bytes: [UInt8], starts: [Int]) -> [UInt32] {
        let count = starts.count - 1
        var positions = (0..<count).map { UInt32(truncatingIfNeeded: $0) }
        bytes.withUnsafeBufferPointer { buffer in
            starts.withUnsafeBufferPointer { starts in
                positions.withUnsafeMutableBufferPointer { positions in
                    var moved = [UInt32](repeating: 0, count: min(count, 1 << 24))
                    var counts = [Int](repeating: 0, count: 257)
                    var scratch: [ChunkKey] = []
                    var runs: [(range: Range<Int>, depth: Int)] = count > 1 ? [(0..<count, 0)] : []
                    /// The byte of name `position` at `depth`, plus one; 0 past its end.
                    func byte(_ position: UInt32, _ depth: Int) -> Int {
                        let at = starts[Int(position)] + depth
                        return at < starts[Int(position) + 1] ? Int(buffer[at]) + 1 : 0
                    }
                    while let (range, depth) = runs.popLast() {
                        if range.count <= sortedRunSize || range.count > moved.count {
                            sortRun(range, depth: depth, positions, buffer, starts, &scratch, &runs)
                            continue
                        }
                        for bucket in counts.indices { counts[bucket] = 0 }
                        for index in range { counts[byte(positions[index], depth)] += 1 }
                        if let only = counts.firstIndex(of: range.count) {
                            // One bucket: nothing moves; past the names' end they are all equal.
                            if only > 0 { runs.append((range, depth + 1)) }
                            continue
                        }
                        var next = 0
                        for bucket in counts.indices {
                            let size = counts[bucket]
                            counts[bucket] = next
                            if bucket > 0, size > 1 {
                                runs.append((range.lowerBound + next..<range.lowerBound + next + size, depth + 1))
                            }
                            next += size
                        }
                        for index in range {
                            let position = positions[index]
                            let bucket = byte(position, depth)
                            moved[counts[bucket]] = position
                            counts[bucket] += 1
                        }
                        for offset in 0..<range.count { positions[range.lowerBound + offset] = moved[offset] }
                    }
                }
            }
        }
        return positions
    }

    /// Runs longer than this are split by a byte; shorter ones sorted by ``ChunkKey``.
    private static let sortedRunSize = 1024

    /// Sorts the positions in `range`, whose names are equal up to `depth`, by their next
    /// sixteen bytes; runs of names still equal and longer go on `runs` sixteen bytes deeper.
    private static func sortRun(_ range: Range<Int>, depth: Int, _ positions: UnsafeMutableBufferPointer<UInt32>,
                                _ buffer: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<Int>,
                                _ scratch: inout [ChunkKey], _ runs: inout [(range: Range<Int>, depth: Int)]) {
        scratch.removeAll(keepingCapacity: true)
        for index in range {
            scratch.append(ChunkKey(buffer, starts, position: positions[index], depth: depth))
        }
        scratch.sort(by: <)
        var first = 0
        while first < scratch.count {
            var end = first + 1
            while end < scratch.count, scratch[end].sameChunk(as: scratch[first]) { end += 1 }
            if end - first > 1, scratch[first].continues {
                runs.append((range.lowerBound + first..<range.lowerBound + end, depth + ChunkKey.width))
            }
            first = end
        }
        for (offset, key) in scratch.enumerated() { positions[range.lowerBound + offset] = key.position }
    }
}

/// Sixteen bytes of a name from some depth on, as two big-endian integers (zero-padded), with
/// how many bytes of the name are left there (at most 17: "more than sixteen") and its position.
private struct ChunkKey: Comparable {
    static let width = 16
    let high: UInt64
    let low: UInt64
    let left: UInt32
    let position: UInt32

    init(_ buffer: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<Int>, position: UInt32, depth: Int) {
        let start = starts[Int(position)] + depth
        let left = max(0, starts[Int(position) + 1] - start)
        func chunk(_ from: Int) -> UInt64 {
            if left >= from + 8, let base = buffer.baseAddress {
                return UInt64(bigEndian: UnsafeRawPointer(base + start + from).loadUnaligned(as: UInt64.self))
            }
            var chunk: UInt64 = 0
            for offset in from..<from + 8 { chunk = chunk << 8 | UInt64(offset < left ? buffer[start + offset] : 0) }
            return chunk
        }
        high = chunk(0)
        low = left > 8 ? chunk(8) : 0
        self.left = UInt32(min(left, Self.width + 1))
        self.position = position
    }

    /// Whether the name goes on past these sixteen bytes.
    var continues: Bool { left > Self.width }

    /// Whether both names are equal up to the end of these sixteen bytes.
    func sameChunk(as other: ChunkKey) -> Bool { high == other.high && low == other.low && left == other.left }

    static func < (a: ChunkKey, b: ChunkKey) -> Bool {
        if a.high != b.high { return a.high < b.high }
        if a.low != b.low { return a.low < b.low }
        if a.left != b.left { return a.left < b.left }
        return a.position < b.position
    }
}
