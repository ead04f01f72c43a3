import CatFactsKit
import CCatFactsHeader

/// `cf_breed` and `cf_fact` as the header declares them (imported from it: a field changed
/// there changes them here). Each item is one allocation, the struct followed by its
/// strings, so handing one out costs one malloc, not six, and `cf_free` frees it as it
/// frees every other hand-out.
enum CItems {
    static func breed(_ breed: Breed) -> UnsafeMutablePointer<cf_breed> {
        func size(_ text: String?) -> Int { text.map { $0.utf8.count + 1 } ?? 0 }
        let header = MemoryLayout<cf_breed>.stride
        let block = CBlock.allocate(header + breed.breed.utf8.count + 1 + size(breed.country) + size(breed.origin)
                             + size(breed.coat) + size(breed.pattern))
        var next = block + header
        // Field by field, not through an array: this is the hot path of cf_list_breed.
        let name = copy(breed.breed, to: &next)
        let country = breed.country.map { copy($0, to: &next) }
        let origin = breed.origin.map { copy($0, to: &next) }
        let coat = breed.coat.map { copy($0, to: &next) }
        let pattern = breed.pattern.map { copy($0, to: &next) }
        let item = block.bindMemory(to: cf_breed.self, capacity: 1)
        item.initialize(to: cf_breed(breed: name, country: country, origin: origin, coat: coat, pattern: pattern))
        return item
    }

    static func fact(_ fact: Fact) -> UnsafeMutablePointer<cf_fact> {
        let header = MemoryLayout<cf_fact>.stride
        let block = CBlock.allocate(header + fact.text.utf8.count + 1)
        var next = block + header
        let text = copy(fact.text, to: &next)
        let item = block.bindMemory(to: cf_fact.self, capacity: 1)
        item.initialize(to: cf_fact(fact: text, length: Int64(fact.length)))
        return item
    }

    /// Copies `text` and its terminating NUL to `cursor`, moves the cursor past them, and
    /// returns where the copy starts.
    private static func copy(_ text: String, to cursor: inout UnsafeMutableRawPointer) -> UnsafePointer<CChar> {
        let start = cursor
        let bytes = cursor.assumingMemoryBound(to: UInt8.self)
        // Native strings hand out their UTF-8 directly; others are copied byte by byte.
        let count = text.utf8.withContiguousStorageIfAvailable { utf8 in
            if let source = utf8.baseAddress { bytes.update(from: source, count: utf8.count) }
            return utf8.count
        } ?? {
            var written = 0
            for byte in text.utf8 { bytes[written] = byte; written += 1 }
            return written
        }()
        bytes[count] = 0
        cursor += count + 1
        return UnsafePointer(start.assumingMemoryBound(to: CChar.self))
    }
}
