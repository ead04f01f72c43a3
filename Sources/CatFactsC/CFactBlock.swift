import CatFactsKit
import CCatFactsHeader

/// Facts laid out for C in one `malloc`'d block (``CBlock``), freed whole with `cf_free`: a
/// header (`cf_fact_array`, or `cf_fact_page` that holds one), then the `cf_fact`s, then
/// their texts, each followed by a NUL (the layout include/catfacts.h documents), as
/// ``CBreedBlock`` lays out breeds.
enum CFactBlock {
    /// A block for `facts` whose header `header` makes from the laid-out array.
    static func make<Header>(_ facts: ArraySlice<Fact>, header: (cf_fact_array) -> Header)
        -> UnsafeMutablePointer<Header> {
        facts.withUnsafeBufferPointer { facts in
            var textCapacity = 0
            for index in facts.indices { textCapacity += facts[index].text.utf8.count + 1 }
            return CBlock.make(count: facts.count, textCapacity: textCapacity) { index, cursor in
                cf_fact(fact: CBlock.put(facts[index].text, at: &cursor).start, length: Int64(facts[index].length))
            } header: { items, text, textSize in
                header(cf_fact_array(count: Int64(facts.count), items: items, text: text, text_size: textSize))
            }
        }
    }
}
