import CatFactsKit
import CCatFactsHeader

/// Breeds laid out for C in one `malloc`'d block (``CBlock``), freed whole with `cf_free`: a
/// header (`cf_breed_array`, or `cf_breed_page` that holds one), then the `cf_breed`s, then
/// their strings, five per breed, each followed by a NUL, an absent field as an empty string
/// (the `text` of `cf_breed_array`, documented in include/catfacts.h). One allocation and
/// one copy of each string, however many breeds: this is what makes a batch cheap per item.
enum CBreedBlock {
    /// A block for `breeds` whose header `header` makes from the laid-out array.
    static func make<Header>(_ breeds: ArraySlice<Breed>, header: (cf_breed_array) -> Header)
        -> UnsafeMutablePointer<Header> {
        // Through the buffer, fields borrowed in place: no retain and release of each breed.
        breeds.withUnsafeBufferPointer { breeds in
            var textCapacity = 0
            for index in breeds.indices {
                textCapacity += breeds[index].breed.utf8.count + (breeds[index].country?.utf8.count ?? 0)
                    + (breeds[index].origin?.utf8.count ?? 0) + (breeds[index].coat?.utf8.count ?? 0)
                    + (breeds[index].pattern?.utf8.count ?? 0) + 5
            }
            return CBlock.make(count: breeds.count, textCapacity: textCapacity) { index, cursor in
                // Field by field, in the documented order: the hot loop of every batch.
                let name = CBlock.put(breeds[index].breed, at: &cursor)
                let country = CBlock.put(breeds[index].country, at: &cursor)
                let origin = CBlock.put(breeds[index].origin, at: &cursor)
                let coat = CBlock.put(breeds[index].coat, at: &cursor)
                let pattern = CBlock.put(breeds[index].pattern, at: &cursor)
                return cf_breed(breed: name.start, country: country.present, origin: origin.present,
                                coat: coat.present, pattern: pattern.present)
            } header: { items, text, textSize in
                header(cf_breed_array(count: Int64(breeds.count), items: items, text: text, text_size: textSize))
            }
        }
    }
}
