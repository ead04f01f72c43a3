/// An arena the file cache can store beside a page's body (``ArenaPage``'s stored layout),
/// so that a hit read from the file is one copy, not a decode.
package protocol ArchivableArena: ItemArena {
    /// The version of the layout ``archive(into:)`` writes; changing it means a new number.
    static var format: Int { get }
    /// Appends the arena's tables, then its text, as they are.
    func archive(into bytes: inout [UInt8])
    /// The arena that `raw` holds (what ``archive(into:)`` wrote) for `count` items and
    /// `textSize` bytes of text, or `nil` when the bytes are not a whole, consistent arena
    /// (a damaged row: the caller decodes the body instead, never trusting them).
    static func restore(count: Int, textSize: Int, hasEmbeddedNUL: Bool, from raw: UnsafeRawBufferPointer) -> Self?
}

/// A decoded page as the file cache stores it: a header of seven little-endian 64-bit words
/// (current_page, last_page, per_page, total, items, text bytes, whether an item's text holds
/// a NUL), then the arena's own layout (``ArchivableArena``). ``format`` is stored in a column
/// of its own: a row of another format, or from a library that stored none, is decoded from
/// its body instead. (The cache's `ArchivedDecoded` conformance is declared in `Store/`, the
/// layer that stores it.)
extension ArenaPage where Arena: ArchivableArena {
    package static var format: Int { Arena.format }

    private static var headerBytes: Int { 7 * 8 }

    /// The page in the stored layout.
    package var archived: [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.headerBytes + arena.bufferBytes)
        for word in [currentPage, lastPage, perPage, total, arena.count, arena.textSize, arena.hasEmbeddedNUL ? 1 : 0] {
            withUnsafeBytes(of: Int64(word).littleEndian) { bytes.append(contentsOf: $0) }
        }
        arena.archive(into: &bytes)
        return bytes
    }

    /// The page `raw` holds, or `nil` when it is not a whole, consistent page in this layout.
    package init?(archived raw: UnsafeRawBufferPointer) {
        guard raw.count >= Self.headerBytes else { return nil }
        let words = (0..<7).map { Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self))) }
        let count = words[4], textSize = words[5], nulFlag = words[6]
        guard count >= 0, count <= raw.count, textSize >= 0, textSize <= raw.count, nulFlag == 0 || nulFlag == 1,
              let arena = Arena.restore(count: count, textSize: textSize, hasEmbeddedNUL: nulFlag == 1,
                                        from: UnsafeRawBufferPointer(rebasing: raw[Self.headerBytes...]))
        else { return nil }
        self.init(currentPage: words[0], lastPage: words[1], perPage: words[2], total: words[3], arena: arena)
    }
}
