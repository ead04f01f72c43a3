import CatFactsC
import CatFactsKit

// libFuzzer target: the query JSON of cf_breeds_query, read as the C function reads it (the
// input up to its first NUL, as a C string), then answered over the bundled catalog (98
// breeds) as the client answers it over the breeds it fetched.
//
// For every input the parser accepts or refuses with CF_ERR_ARGUMENT and a message; an
// accepted query's answer holds only catalog breeds, each once, each with the fields
// `present` asks for and the grouping field, and no more than `limit` of them. Any other
// outcome, a trap or a leak stops the run.
//
// Run: `make fuzz` (or `make fuzz-short`); seeds in Tests/Fuzz/corpus/query.

/// One input, as libFuzzer hands it; 0 always (a failed check stops the run).
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var text = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    text.append(0)
    let outcome = text.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
            Result { () throws(CatFactsError) in try BreedQuery.parse(chars.baseAddress) }
        }
    }
    switch outcome {
    case .success(let query):
        check(query, text)
    case .failure(let error):
        guard case .argument(let message) = error, !message.isEmpty else { fail("the query refused with \(error)", text) }
    }
    return 0
}

private let catalog = Set(BundledCatalog.breeds)

private func check(_ query: BreedQuery, _ text: [UInt8]) {
    if let limit = query.limit, limit < 0 { fail("a negative limit accepted: \(limit)", text) }
    // A new view for every input: a view remembers the prefixes that found nothing.
    let answer = BreedCatalogView(breeds: BundledCatalog.breeds).answer(query)
    let breeds = answer.breeds
    if let limit = query.limit, breeds.count > limit { fail("\(breeds.count) breeds for limit \(limit)", text) }
    if Set(breeds).count != breeds.count { fail("a breed answered twice", text) }
    for breed in breeds {
        if !catalog.contains(breed) { fail("a breed not in the catalog: \(breed)", text) }
        if let missing = query.present.first(where: { breed[$0] == nil }) { fail("\(breed.breed) has no \(missing)", text) }
        if let field = query.groupBy, breed[field] == nil { fail("\(breed.breed) grouped without \(field)", text) }
    }
    if case .groups(let groups) = answer {
        if groups.contains(where: \.items.isEmpty) { fail("an empty group", text) }
    }
}

/// Stops the run: libFuzzer reports the trap and keeps the input.
private func fail(_ what: String, _ text: [UInt8]) -> Never {
    fatalError("\(what)\ninput: \(String(decoding: text.dropLast(), as: UTF8.self).debugDescription)")
}
