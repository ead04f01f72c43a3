import CatFactsKit

// cf_breeds_query's JSON (its keys are the header's).

extension BreedQuery {
    static let jsonKeys: Set<String> = ["search", "group_by", "sort_by", "descending", "where", "present", "limit"]

    /// A query from `cf_breeds_query`'s JSON.
    @_optimize(size)  // once per query
    package static func parse(_ json: UnsafePointer<CChar>?) throws(CatFactsError) -> BreedQuery {
        let options = try OptionsJSON(json, what: "the query", allowed: jsonKeys)
        func field(_ name: String, key: String) throws(CatFactsError) -> Breed.Field {
            try Breed.Field.named(name, key: key, in: "the query")
        }
        var query = BreedQuery()
        query.search = try options.string("search")
        if let name = try options.string("group_by") { query.groupBy = try field(name, key: "group_by") }
        if let name = try options.string("sort_by") { query.sortBy = try field(name, key: "sort_by") }
        query.descending = try options.bool("descending") ?? false
        for (name, value) in try options.stringMap("where") ?? [:] {
            query.whereValues[try field(name, key: "where")] = value
        }
        for name in try options.stringArray("present") ?? [] {
            query.present.insert(try field(name, key: "present"))
        }
        query.limit = try options.integer("limit", in: 0...1_000_000)
        return query
    }
}
