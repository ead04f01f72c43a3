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
    ///
    /// A page of breeds or facts the client decoded keeps them in one buffer (its arena) and
    /// makes the values the first time they are read, once: a page that only goes to C or
    /// Python, or whose ``count`` is all that is needed, never makes them.
    public var items: [Item] {
        get { storage.items }
        set { storage = PageItems(newValue) }
    }
    /// Where the page came from.
    public var source: Source
    /// When the page was fetched from the network (for a cached page: when it was cached).
    public var fetchedAt: Timestamp

    private var storage: PageItems<Item>

    /// Creates a page.
    public init(number: Int, lastPage: Int, perPage: Int, total: Int, items: [Item],
                source: Source, fetchedAt: Timestamp) {
        self.init(number: number, lastPage: lastPage, perPage: perPage, total: total, storage: PageItems(items),
                  source: source, fetchedAt: fetchedAt)
    }

    private init(number: Int, lastPage: Int, perPage: Int, total: Int, storage: PageItems<Item>,
                 source: Source, fetchedAt: Timestamp) {
        self.number = number
        self.lastPage = lastPage
        self.perPage = perPage
        self.total = total
        self.storage = storage
        self.source = source
        self.fetchedAt = fetchedAt
    }

    /// Zero-based index, in the whole collection, of this page's first item.
    public var firstIndex: Int { (number - 1) * perPage }

    /// How many items the page holds (``items``' count, without making them).
    public var count: Int { storage.count }

    /// The page's breeds as decoded, when it holds them so and its items were not replaced.
    package var arena: BreedArena? { storage.arena }

    /// The page's facts as decoded, when it holds them so and its items were not replaced.
    package var factArena: FactArena? { storage.factArena }
}

extension Page where Item == Breed {
    /// A page of the breeds of `arena`, made as values only when ``items`` is read.
    package init(number: Int, lastPage: Int, perPage: Int, total: Int, arena: BreedArena,
                 source: Source, fetchedAt: Timestamp) {
        self.init(number: number, lastPage: lastPage, perPage: perPage, total: total, storage: PageItems(arena: arena),
                  source: source, fetchedAt: fetchedAt)
    }
}

extension Page where Item == Fact {
    /// A page of the facts of `arena`, made as values only when ``items`` is read.
    package init(number: Int, lastPage: Int, perPage: Int, total: Int, arena: FactArena,
                 source: Source, fetchedAt: Timestamp) {
        self.init(number: number, lastPage: lastPage, perPage: perPage, total: total, storage: PageItems(arena: arena),
                  source: source, fetchedAt: fetchedAt)
    }
}

extension Page: Equatable where Item: Equatable {
    public static func == (a: Page, b: Page) -> Bool {
        a.number == b.number && a.lastPage == b.lastPage && a.perPage == b.perPage && a.total == b.total
            && a.source == b.source && a.fetchedAt == b.fetchedAt && a.items == b.items
    }
}

/// A page's items: the values given, or those of a ``BreedArena`` or ``FactArena`` made on
/// first reading and kept (a class, so that copies of the page share them; its lock makes
/// that safe).
private final class PageItems<Item: Sendable>: Sendable {
    let arena: BreedArena?
    let factArena: FactArena?
    let count: Int
    private let made: Locked<[Item]?>

    init(_ items: [Item]) {
        arena = nil
        factArena = nil
        count = items.count
        made = Locked(items)
    }

    init(arena: BreedArena) where Item == Breed {
        self.arena = arena
        factArena = nil
        count = arena.count
        made = Locked(nil)
    }

    init(arena: FactArena) where Item == Fact {
        self.arena = nil
        factArena = arena
        count = arena.count
        made = Locked(nil)
    }

    var items: [Item] {
        made.withLock { made in
            if let made { return made }
            // Only a page of breeds has a breed arena, and of facts a fact arena (the
            // initializers above): the casts always succeed.
            let items = arena.map { $0.breeds() as? [Item] ?? [] } ?? factArena.map { $0.facts() as? [Item] ?? [] } ?? []
            made = items
            return items
        }
    }
}

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
