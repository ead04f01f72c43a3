#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fact arena's stored layout: each fact's start (32-bit little-endian) and length (64-bit),
/// then the text.
extension FactArena: ArchivableArena {
    package static let format = 1

    /// A fact's start and length.
    private static let perFact = 4 + 8

    package func archive(into bytes: inout [UInt8]) {
        for index in 0..<count {
            withUnsafeBytes(of: starts[index].littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: Int64(lengths[index]).littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: text, count: textSize))
    }

    /// The sizes must add up, every start lie inside the text after the NUL ending the fact
    /// before, the text end with a NUL and be UTF-8, no fact hold a NUL unless
    /// `hasEmbeddedNUL` says so, no length be negative.
    package static func restore(count: Int, textSize: Int, hasEmbeddedNUL: Bool,
                                from raw: UnsafeRawBufferPointer) -> FactArena? {
        guard count <= raw.count / perFact, raw.count == count * perFact + textSize else { return nil }
        if count == 0 { return textSize == 0 ? .empty : nil }
        guard let base = raw.baseAddress else { return nil }
        let text = (base + count * perFact).assumingMemoryBound(to: UInt8.self)
        guard textSize >= count, text[textSize - 1] == 0, JSONScanner.isUTF8(UnsafeBufferPointer(start: text, count: textSize))
        else { return nil }
        var builder = FactArenaBuilder(textCapacity: textSize, factCapacity: count)
        var previous = -1
        for index in 0..<count {
            let entry = index * perFact
            let start = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry, as: UInt32.self)))
            let length = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: entry + 4, as: Int64.self)))
            let end = index + 1 < count
                ? Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry + perFact, as: UInt32.self))) : textSize
            let valid = (index == 0 ? start == 0 : start > previous && text[start - 1] == 0) && end > start && end <= textSize
                && text[end - 1] == 0 && length >= 0
            guard valid, hasEmbeddedNUL || memchr(text + start, 0, end - start - 1) == nil else {
                builder.discard()
                return nil
            }
            previous = start
            builder.append(stored: UnsafeBufferPointer(start: text + start, count: end - start), length: length)
        }
        if hasEmbeddedNUL { builder.noteEmbeddedNUL() }
        return builder.finish()
    }
}
