import CatFactsKit
import CCatFactsHeader

extension CBreedBlock {
    /// The block of breeds `range` of `arena`, whose text is already `cf_breed_array.text`'s
    /// layout: one allocation, one copy of the text, and the items pointed into it. `nil` when
    /// a field holds a NUL (C cuts a string there, so the text must be laid out again from
    /// the breed values: the caller does).
    static func make<Header>(_ arena: BreedArena, _ range: Range<Int>, header: (cf_breed_array) -> Header)
        -> UnsafeMutablePointer<Header>? {
        guard !arena.hasEmbeddedNUL else { return nil }
        let fields = BreedArena.fields
        let starts = arena.starts
        let from = range.isEmpty ? 0 : Int(starts[range.lowerBound * fields])
        let to = range.isEmpty || range.upperBound >= arena.count ? (range.isEmpty ? 0 : arena.textSize)
            : Int(starts[range.upperBound * fields])
        return CBlock.make(count: range.count, textCapacity: to - from, copying: arena.text + from) {
            (text: UnsafePointer<CChar>, items: UnsafeMutablePointer<cf_breed>) in
            // Each field where its start says, relative to the copied range; absent when empty
            // (its NUL right there), which a name never is.
            let base = text - from
            var slot = range.lowerBound * fields
            for index in 0..<range.count {
                let name = base + Int(starts[slot])
                let country = base + Int(starts[slot + 1]), origin = base + Int(starts[slot + 2])
                let coat = base + Int(starts[slot + 3]), pattern = base + Int(starts[slot + 4])
                (items + index).initialize(to: cf_breed(
                    breed: name, country: country.pointee == 0 ? nil : country, origin: origin.pointee == 0 ? nil : origin,
                    coat: coat.pointee == 0 ? nil : coat, pattern: pattern.pointee == 0 ? nil : pattern))
                slot += fields
            }
        } header: { items, text, textSize in
            header(cf_breed_array(count: Int64(range.count), items: items, text: text, text_size: textSize))
        }
    }
}
