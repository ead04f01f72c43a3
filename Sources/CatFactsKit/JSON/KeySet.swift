/// The keys a reader knows, as bytes, to match a key without making a `String`.
///
/// A key is matched a word at a time: each known key, with its closing quote, is kept as
/// the eight bytes it starts with (and a mask for a shorter one) plus the bytes after them,
/// so the usual key (`"breed"`, `"country"`) costs one load and one compare per candidate
/// (measured: matching byte by byte, through an array per key, took a tenth of decoding).
struct KeySet: Sendable {
    /// One known key: its bytes and closing quote, as a first word and the rest.
    private struct Entry: Sendable {
        /// The first up to eight bytes of the key and its quote, little-endian (the first byte lowest).
        var head: UInt64
        /// Which bytes of ``head`` count (all eight for a key of seven bytes or more).
        var mask: UInt64
        /// The key's bytes plus its quote.
        var length: Int
        /// Where the bytes after the first eight start in ``KeySet/tails``.
        var tailStart: Int
    }

    private let names: [String]
    private let entries: [Entry]
    /// The bytes after the first eight of every longer key (and its quote), one after another.
    private let tails: [UInt8]

    init(_ names: [String]) {
        self.names = names
        var entries: [Entry] = []
        var tails: [UInt8] = []
        for name in names {
            let spelled = Array(name.utf8) + [Ascii.quote]
            var head: UInt64 = 0
            for (position, byte) in spelled.prefix(8).enumerated() { head |= UInt64(byte) << (8 * position) }
            let mask: UInt64 = spelled.count >= 8 ? ~0 : (1 << (8 * spelled.count)) - 1
            entries.append(Entry(head: head, mask: mask, length: spelled.count, tailStart: tails.count))
            tails += spelled.dropFirst(8)
        }
        self.entries = entries
        self.tails = tails
    }

    static let none = KeySet([])

    /// The position of the key spelled by `bytes` (a key that had escapes, undone), or -1.
    func index(of bytes: some Collection<UInt8>) -> Int {
        names.firstIndex { $0.utf8.elementsEqual(bytes) } ?? -1
    }

    /// The key whose bytes and closing quote start at `start` in `bytes`, and the offset
    /// after that quote; `nil` when none does (an unknown key, or one with escapes). The
    /// `expected` entry is tried first.
    func match(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, expected: Int = 0) -> (index: Int, end: Int)? {
        guard start < bytes.count, let base = bytes.baseAddress else { return nil }
        let word = Self.word(base, count: bytes.count, at: start)
        return entries.withUnsafeBufferPointer { entries -> (index: Int, end: Int)? in
            if entries.indices.contains(expected), matches(entries[expected], word, base, bytes.count, at: start) {
                return (expected, start + entries[expected].length)
            }
            for index in entries.indices where index != expected {
                if matches(entries[index], word, base, bytes.count, at: start) { return (index, start + entries[index].length) }
            }
            return nil
        }
    }

    private func matches(_ entry: Entry, _ word: UInt64, _ base: UnsafePointer<UInt8>, _ count: Int, at start: Int) -> Bool {
        guard word & entry.mask == entry.head, entry.length <= count - start else { return false }
        guard entry.length > 8 else { return true }
        return tails.withUnsafeBufferPointer { tails in
            for offset in 8..<entry.length where tails[entry.tailStart + offset - 8] != base[start + offset] { return false }
            return true
        }
    }

    /// The eight bytes at `start`, little-endian; past the end of the body, zero bytes (which
    /// no key's head holds where its mask counts: a key and its quote hold no zero byte).
    private static func word(_ base: UnsafePointer<UInt8>, count: Int, at start: Int) -> UInt64 {
        if start + 8 <= count {
            return UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: start, as: UInt64.self))
        }
        var word: UInt64 = 0
        for position in 0..<(count - start) { word |= UInt64(base[start + position]) << (8 * position) }
        return word
    }

    /// The key at `index` (from ``index(of:)``).
    func name(_ index: Int) -> String {
        names.indices.contains(index) ? names[index] : "?"
    }
}
