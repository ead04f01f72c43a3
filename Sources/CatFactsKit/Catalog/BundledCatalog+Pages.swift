#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BundledCatalog {
    /// A page of `items` cut as the server would cut it, labelled as the offline catalog.
    static func page<Item>(of items: [Item], page: Int, limit: Int) -> Page<Item> {
        let start = min(items.count, (page - 1) * limit)
        let end = min(items.count, start + limit)
        return Page(number: page, lastPage: max(1, (items.count + limit - 1) / limit), perPage: limit,
                    total: items.count, items: Array(items[start..<end]), source: .offlineCatalog, fetchedAt: .now)
    }
}
