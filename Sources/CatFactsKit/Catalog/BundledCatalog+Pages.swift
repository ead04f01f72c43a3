extension BundledCatalog {
    /// A page of `items` cut as the server would cut it, labelled as the offline catalog.
    /// `page` >= 1 and `limit` >= 1 may be as large as a caller likes: nothing here overflows.
    static func page<Item>(of items: [Item], page: Int, limit: Int) -> Page<Item> {
        let (skipped, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
        let start = overflow ? items.count : min(items.count, skipped)
        let end = start + min(items.count - start, limit)
        let lastPage = items.count / limit + (items.count % limit == 0 ? 0 : 1)
        return Page(number: page, lastPage: max(1, lastPage), perPage: limit,
                    total: items.count, items: Array(items[start..<end]), source: .offlineCatalog, fetchedAt: .now)
    }
}
