#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A decoded page of breeds as the file cache stores it beside the body, so that a hit read
/// from the file is one copy, not a decode: a header of seven little-endian 64-bit words
/// (current_page, last_page, per_page, total, breeds, text bytes, whether a field holds a
/// NUL), the fields' starts (32-bit each), then the text, the arena's buffers as they are.
/// ``format`` is stored in a column of its own: a row of another format, or from a library
/// that stored none, is decoded from its body instead.
extension BreedArenaPage {
    /// The layout's version; changing the layout means a new number.
    package static let format = 1

    private static let headerBytes = 7 * 8

    /// The page in the stored layout.
    package var archived: [UInt8] {
        let slots = arena.count * BreedArena.fields
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.headerBytes + slots * 4 + arena.textSize)
        for word in [currentPage, lastPage, perPage, total, arena.count, arena.textSize, arena.hasEmbeddedNUL ? 1 : 0] {
            withUnsafeBytes(of: Int64(word).littleEndian) { bytes.append(contentsOf: $0) }
        }
        for slot in 0..<slots {
            withUnsafeBytes(of: arena.starts[slot].littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: arena.text, count: arena.textSize))
        return bytes
    }

    /// The page `bytes` hold, or `nil` when they are not a whole, consistent page in this
    /// layout (a damaged row: the caller decodes the body instead, never trusting them): the
    /// sizes must add up, every start lie inside the text after the NUL ending the field
    /// before, the text end with a NUL and be UTF-8.
    package init?(archived raw: UnsafeRawBufferPointer) {
        let made = { () -> (numbers: [Int], arena: BreedArena)? in
            guard raw.count >= Self.headerBytes, let base = raw.baseAddress else { return nil }
            let words = (0..<7).map { Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self))) }
            let count = words[4], textSize = words[5], nulFlag = words[6]
            let fields = BreedArena.fields
            guard count >= 0, count <= raw.count / (fields * 4), textSize >= 0, textSize <= raw.count, nulFlag == 0 || nulFlag == 1,
                  raw.count == Self.headerBytes + count * fields * 4 + textSize else { return nil }
            let slots = count * fields
            let text = (base + Self.headerBytes + slots * 4).assumingMemoryBound(to: UInt8.self)
            guard slots == 0 ? textSize == 0 : (textSize >= slots && text[textSize - 1] == 0),
                  JSONScanner.isUTF8(UnsafeBufferPointer(start: text, count: textSize)) else { return nil }
            var builder = BreedArenaBuilder(textCapacity: textSize, breedCapacity: count)
            var previous = 0
            for slot in 0..<slots {
                let start = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: Self.headerBytes + slot * 4, as: UInt32.self)))
                guard slot == 0 ? start == 0 : (start > previous && start < textSize && text[start - 1] == 0) else {
                    builder.discard()
                    return nil
                }
                previous = start
                builder.startField(slot % fields)
                builder.setStart(start)
            }
            builder.copyText(text, count: textSize, hasEmbeddedNUL: nulFlag == 1)
            return (Array(words[0..<4]), builder.finish())
        }()
        guard let made else { return nil }
        self.init(currentPage: made.numbers[0], lastPage: made.numbers[1], perPage: made.numbers[2], total: made.numbers[3],
                  arena: made.arena)
    }
}
