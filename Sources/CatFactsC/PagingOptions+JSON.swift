import CatFactsKit

// cf_list_open's options (their ranges are the header's, next to each key).

extension PagingOptions {
    static let jsonKeys: Set<String> = ["page_size", "prefetch_distance", "max_cached_items", "max_length"]

    /// Options from `cf_list_open`'s JSON, and the facts' `max_length` (0: none).
    package static func parse(_ json: UnsafePointer<CChar>?) throws(CatFactsError) -> (PagingOptions, maxLength: Int) {
        let options = try OptionsJSON(json, what: "list options", allowed: jsonKeys)
        let pageSize = try options.integer("page_size", in: 1...100_000) ?? 25
        let paging = PagingOptions(pageSize: pageSize,
                                   prefetchDistance: try options.integer("prefetch_distance", in: 0...1_000_000),
                                   maxCachedItems: try options.integer("max_cached_items", in: 1...10_000_000) ?? 500)
        return (paging, try options.integer("max_length", in: 0...1_000_000) ?? 0)
    }
}
