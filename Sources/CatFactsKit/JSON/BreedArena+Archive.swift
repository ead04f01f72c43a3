/// A breed arena's stored layout: each field's start (32-bit little-endian, five a breed), then
/// the text.
extension BreedArena: ArchivableArena {
    package static let format = 1

    package func archive(into bytes: inout [UInt8]) {
        for slot in 0..<count * Self.fields {
            withUnsafeBytes(of: starts[slot].littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: text, count: textSize))
    }

    /// The sizes must add up, every start lie inside the text after the NUL ending the field
    /// before, the text end with a NUL and be UTF-8.
    package static func restore(count: Int, textSize: Int, hasEmbeddedNUL: Bool,
                                from raw: UnsafeRawBufferPointer) -> BreedArena? {
        guard count <= raw.count / (fields * 4), raw.count == count * fields * 4 + textSize else { return nil }
        if count == 0 { return textSize == 0 ? .empty : nil }
        let slots = count * fields
        guard let base = raw.baseAddress else { return nil }
        let text = (base + slots * 4).assumingMemoryBound(to: UInt8.self)
        guard textSize >= slots, text[textSize - 1] == 0, JSONScanner.isUTF8(UnsafeBufferPointer(start: text, count: textSize))
        else { return nil }
        var builder = BreedArenaBuilder(textCapacity: textSize, breedCapacity: count)
        var previous = 0
        for slot in 0..<slots {
            let start = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: slot * 4, as: UInt32.self)))
            guard slot == 0 ? start == 0 : (start > previous && start < textSize && text[start - 1] == 0) else {
                builder.discard()
                return nil
            }
            previous = start
            builder.startField(slot % fields)
            builder.setStart(start)
        }
        builder.copyText(text, count: textSize, hasEmbeddedNUL: hasEmbeddedNUL)
        return builder.finish()
    }
}
