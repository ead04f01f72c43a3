#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A decoded page of facts as the file cache stores it beside the body, so that a hit read
/// from the file is one copy, not a decode: a header of seven little-endian 64-bit words
/// (current_page, last_page, per_page, total, facts, text bytes, whether a fact holds a NUL),
/// each fact's start (32-bit) and length (64-bit), then the text, the arena's buffers as they
/// are. ``format`` is stored in a column of its own: a row of another format, or from a
/// library that stored none, is decoded from its body instead.
extension FactArenaPage {
    /// The layout's version; changing the layout means a new number.
    package static let format = 1

    private static let headerBytes = 7 * 8
    /// A fact's start and length.
    private static let perFact = 4 + 8

    /// The page in the stored layout.
    package var archived: [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.headerBytes + arena.count * Self.perFact + arena.textSize)
        for word in [currentPage, lastPage, perPage, total, arena.count, arena.textSize, arena.hasEmbeddedNUL ? 1 : 0] {
            withUnsafeBytes(of: Int64(word).littleEndian) { bytes.append(contentsOf: $0) }
        }
        for index in 0..<arena.count {
            withUnsafeBytes(of: arena.starts[index].littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: Int64(arena.lengths[index]).littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: arena.text, count: arena.textSize))
        return bytes
    }

    /// The page `bytes` hold, or `nil` when they are not a whole, consistent page in this
    /// layout (a damaged row: the caller decodes the body instead, never trusting them): the
    /// sizes must add up, every start lie inside the text after the NUL ending the fact
    /// before, the text end with a NUL and be UTF-8, no fact hold a NUL unless the header says so.
    package init?(archived raw: UnsafeRawBufferPointer) {
        guard raw.count >= Self.headerBytes, let base = raw.baseAddress else { return nil }
        let words = (0..<7).map { Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self))) }
        let count = words[4], textSize = words[5], nulFlag = words[6]
        guard count >= 0, count <= raw.count / Self.perFact, textSize >= 0, textSize <= raw.count, nulFlag == 0 || nulFlag == 1,
              raw.count == Self.headerBytes + count * Self.perFact + textSize else { return nil }
        let text = (base + Self.headerBytes + count * Self.perFact).assumingMemoryBound(to: UInt8.self)
        guard count == 0 ? textSize == 0 : text[textSize - 1] == 0,
              JSONScanner.isUTF8(UnsafeBufferPointer(start: text, count: textSize)) else { return nil }
        var builder = FactArenaBuilder(textCapacity: textSize, factCapacity: count)
        var previous = -1
        for index in 0..<count {
            let entry = Self.headerBytes + index * Self.perFact
            let start = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry, as: UInt32.self)))
            let length = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: entry + 4, as: Int64.self)))
            let end = index + 1 < count
                ? Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry + Self.perFact, as: UInt32.self))) : textSize
            let valid = (index == 0 ? start == 0 : start > previous && text[start - 1] == 0) && end > start && end <= textSize
                && text[end - 1] == 0 && length >= 0
            guard valid, nulFlag == 1 || memchr(text + start, 0, end - start - 1) == nil else {
                builder.discard()
                return nil
            }
            previous = start
            builder.append(stored: UnsafeBufferPointer(start: text + start, count: end - start), length: length)
        }
        if nulFlag == 1 { builder.noteEmbeddedNUL() }
        self.init(currentPage: words[0], lastPage: words[1], perPage: words[2], total: words[3], arena: builder.finish())
    }
}
