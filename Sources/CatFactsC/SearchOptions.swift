import CatFactsKit

/// The options of `cf_search_open`, read from its JSON (the ranges are the header's).
struct SearchOptions {
    static let jsonKeys: Set<String> = ["debounce_ms", "limit", "fields"]
    var debounce = Duration.milliseconds(150)
    var limit = 20
    var fields = Set(Breed.Field.allCases)

    init(_ json: UnsafePointer<CChar>?) throws(CatFactsError) {
        let options = try OptionsJSON(json, what: "search options", allowed: Self.jsonKeys)
        if let ms = try options.integer("debounce_ms", in: 0...60_000) { debounce = .milliseconds(ms) }
        if let limit = try options.integer("limit", in: 1...10_000) { self.limit = limit }
        if let names = try options.stringArray("fields") {
            fields = [.breed]
            for name in names { fields.insert(try Breed.Field.named(name, key: "fields", in: "search options")) }
        }
    }
}
