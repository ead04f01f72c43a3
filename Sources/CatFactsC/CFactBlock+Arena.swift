import CatFactsKit
import CCatFactsHeader

extension CFactBlock {
    /// The block of the facts of `arena`, whose text is already `cf_fact_array.text`'s layout:
    /// one allocation, one copy of the text, and the items pointed into it. `nil` when a fact
    /// holds a NUL (C cuts a string there, so the text must be laid out again from the fact
    /// values: the caller does).
    static func make<Header>(_ arena: FactArena, header: (cf_fact_array) -> Header) -> UnsafeMutablePointer<Header>? {
        guard !arena.hasEmbeddedNUL else { return nil }
        let starts = arena.starts, lengths = arena.lengths
        return CBlock.make(count: arena.count, textCapacity: arena.textSize, copying: arena.text) {
            (text: UnsafePointer<CChar>, items: UnsafeMutablePointer<cf_fact>) in
            for index in 0..<arena.count {
                (items + index).initialize(to: cf_fact(fact: text + Int(starts[index]), length: Int64(lengths[index])))
            }
        } header: { items, text, textSize in
            header(cf_fact_array(count: Int64(arena.count), items: items, text: text, text_size: textSize))
        }
    }
}
