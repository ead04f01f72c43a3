@testable import CatFactsKit
import Testing

@Suite("Paging options and the pager's rules, with a local loader")
struct PagingOptionsTests {
    @Test func defaultsFollowThePageSize() {
        let options = PagingOptions(pageSize: 40)
        #expect(options.prefetchDistance == 80)
        #expect(options.maxCachedItems == 500)
    }

    @Test func aBudgetBelowTheWindowIsRefused() {
        #expect(throws: CatFactsError.argument("max_cached_items 100 is below page_size + 2 × prefetch_distance (125): the list could not hold its own prefetch window")) {
            try PagingOptions(pageSize: 25, prefetchDistance: 50, maxCachedItems: 100).validate()
        }
        #expect(throws: CatFactsError.self) { try PagingOptions(pageSize: 0).validate() }
        #expect(throws: CatFactsError.self) { try PagingOptions(pageSize: 5, prefetchDistance: -1).validate() }
    }

    @Test func theListLearnsAChangedTotalFromLaterPages() async throws {
        // The collection shrinks from 100 to 30 items between the first and the second load.
        let list = try PagedList<Int>(options: PagingOptions(pageSize: 10, prefetchDistance: 0, maxCachedItems: 30)) { page, limit in
            let total = page == 1 ? 100 : 30
            let first = (page - 1) * limit
            let items = Array(first..<min(first + limit, total))
            return Page(number: page, lastPage: (total + limit - 1) / limit, perPage: limit, total: total,
                        items: items, source: .network, fetchedAt: .now)
        }
        #expect(await list.wait(for: 5, timeout: hangBound) == .loaded(5))
        #expect(list.count == 100)
        #expect(await list.wait(for: 25, timeout: hangBound) == .loaded(25))
        #expect(list.count == 30)
        #expect(list.item(at: 50) == .pastEnd)
    }

    @Test func droppingTheLastReferenceEndsTheListWhileItsLoadWaits() async throws {
        let gate = Locked<CheckedContinuation<Void, Never>?>(nil)
        weak var dropped: PagedList<Int>?
        do {
            let list = try PagedList<Int>(options: PagingOptions(pageSize: 10, prefetchDistance: 0)) { page, limit in
                await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
                return Page(number: page, lastPage: 1, perPage: limit, total: 10, items: Array(0..<10),
                            source: .network, fetchedAt: .now)
            }
            #expect(list.item(at: 0) == .pending)
            try await waitUntil { gate.withLock { $0 != nil } }
            dropped = list
        }
        #expect(dropped == nil, "the waiting load holds the list's parts, never the list")
        // The load ends after its list: it finds no page waiting for it.
        gate.withLock { $0 }?.resume()
    }
}
