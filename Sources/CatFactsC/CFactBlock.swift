import CatFactsKit
import CCatFactsHeader

/// Facts laid out for C in one `malloc`'d block, freed whole with `cf_free`: the
/// `cf_fact_array`, then the `cf_fact`s, then their texts, each followed by a NUL (the
/// layout include/catfacts.h documents), as ``CBreedBlock`` lays out breeds.
enum CFactBlock {
    static func make(_ facts: ArraySlice<Fact>) -> UnsafeMutablePointer<cf_fact_array> {
        facts.withUnsafeBufferPointer { make($0) }
    }

    private static func make(_ facts: UnsafeBufferPointer<Fact>) -> UnsafeMutablePointer<cf_fact_array> {
        let itemsOffset = CBlock.roundUp(MemoryLayout<cf_fact_array>.size, to: MemoryLayout<cf_fact>.alignment)
        let textOffset = itemsOffset + facts.count * MemoryLayout<cf_fact>.stride
        var textCapacity = 0
        for index in facts.indices { textCapacity += facts[index].text.utf8.count + 1 }
        let block = CBlock.allocate(textOffset + textCapacity)
        let items = (block + itemsOffset).bindMemory(to: cf_fact.self, capacity: facts.count)
        let text = (block + textOffset).bindMemory(to: UInt8.self, capacity: textCapacity)
        var cursor = text
        for index in facts.indices {
            let placed = CBlock.put(facts[index].text, at: &cursor)
            (items + index).initialize(to: cf_fact(fact: placed.start, length: Int64(facts[index].length)))
        }
        let made = block.bindMemory(to: cf_fact_array.self, capacity: 1)
        made.initialize(to: cf_fact_array(count: Int64(facts.count), items: UnsafePointer(items),
                                          text: UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self),
                                          text_size: cursor - text))
        return made
    }
}
