import CatFactsKit

extension PHPJSONWriter {
    /// A breed as the service sends it: all five keys, an absent field as `""`.
    mutating func breed(_ breed: Breed) {
        raw("{\"breed\":")
        string(breed.breed)
        raw(",\"country\":")
        string(breed.country ?? "")
        raw(",\"origin\":")
        string(breed.origin ?? "")
        raw(",\"coat\":")
        string(breed.coat ?? "")
        raw(",\"pattern\":")
        string(breed.pattern ?? "")
        raw("}")
    }

    /// A fact as the service sends it: `{"fact":"…","length":N}`.
    mutating func fact(_ fact: Fact) {
        raw("{\"fact\":")
        string(fact.text)
        raw(",\"length\":")
        int(fact.length)
        raw("}")
    }
}
