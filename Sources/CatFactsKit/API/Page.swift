#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One page of a paginated collection, as the client hands it out.
public struct Page<Item: Sendable>: Sendable {
    /// The page's number, from 1.
    public var number: Int
    /// The last page's number; 1 for an empty collection.
    public var lastPage: Int
    /// Items per page, as the server applied it (after its own cap).
    public var perPage: Int
    /// Items in the whole collection.
    public var total: Int
    /// The items, `perPage` of them except on the last page; none past the end.
    public var items: [Item]
    /// Where the page came from.
    public var source: Source
    /// When the page was fetched from the network (for a cached page: when it was cached).
    public var fetchedAt: Date

    /// Creates a page.
    public init(number: Int, lastPage: Int, perPage: Int, total: Int, items: [Item],
                source: Source, fetchedAt: Date) {
        self.number = number
        self.lastPage = lastPage
        self.perPage = perPage
        self.total = total
        self.items = items
        self.source = source
        self.fetchedAt = fetchedAt
    }

    /// Zero-based index, in the whole collection, of this page's first item.
    public var firstIndex: Int { (number - 1) * perPage }
}

extension Page: Equatable where Item: Equatable {}

/// Where a result came from: always said, so stale or bundled data is never taken for live data.
public enum Source: String, Sendable, Codable, CaseIterable {
    /// Fetched from the server just now.
    case network
    /// Served from the client's cache.
    case cache
    /// Served from the catalog bundled with the library (no network, nothing cached).
    case offlineCatalog = "offline-catalog"
}

extension Source: Comparable {
    /// Ordered by freshness: network, then cache, then the bundled catalog (so `max` of the
    /// sources of many pages is the least fresh of them).
    public static func < (a: Source, b: Source) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }
}
