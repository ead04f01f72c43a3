import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("The windowed pager against the mock")
struct PagedListTests {
    @Test func aSequentialWalkGetsEveryItemAndHoldsOnlyItsWindow() async throws {
        // Whether prefetch keeps ahead of a reader is a matter of speed: `make bench` (Scroll)
        // measures the rows found pending. Here: the right items, and memory bounded.
        try await withMock({ $0.breeds = 1_000_000; $0.latency = .milliseconds(10) }) { client, _ in
            let list = try client.breedList(PagingOptions(pageSize: 25, prefetchDistance: 50, maxCachedItems: 500))
            for index in 0..<1000 {
                let name = await list.wait(for: index, timeout: hangBound).item?.breed
                #expect(name?.hasSuffix(" \(index + 1)") == true, "index \(index): \(name ?? "none")")
                #expect(list.heldItemCount <= 500)
            }
            #expect(list.count == 1_000_000)
        }
    }

    @Test func aBatchIsTheRestOfItsPageAndNeverCrossesIt() async throws {
        try await withMock() { client, _ in
            let list = try client.breedList(PagingOptions(pageSize: 10, prefetchDistance: 0, maxCachedItems: 100))
            #expect(list.items(from: 3, atMost: 100).status == .pending)
            _ = await list.wait(for: 3, timeout: hangBound)
            #expect(list.items(from: 3, atMost: 100).item.map(Array.init) == Array(BundledCatalog.breeds[3..<10]))
            #expect(list.items(from: 3, atMost: 2).item.map(Array.init) == Array(BundledCatalog.breeds[3..<5]))
            _ = await list.wait(for: 95, timeout: hangBound)
            #expect(list.items(from: 95, atMost: .max).item.map(Array.init) == Array(BundledCatalog.breeds[95..<98]))
            #expect(list.items(from: 98, atMost: 10).status == .notFound)
            #expect(list.items(from: -1, atMost: 10).status == .notFound)
        }
    }

    @Test func aFarJumpLoadsOnlyThePageUnderIt() async throws {
        try await withMock({ $0.breeds = 1_000_000 }) { client, server in
            let list = try client.breedList(PagingOptions(pageSize: 25, prefetchDistance: 0, maxCachedItems: 100))
            let state = await list.wait(for: 654_321, timeout: hangBound)
            #expect(state.item != nil)
            #expect(server.requestCount(path: "/breeds") == 1)
            #expect(list.heldPages == [654_321 / 25])
        }
    }

    @Test func aFarJumpWithPrefetchLoadsItsWindowAndNothingBetween() async throws {
        try await withMock({ $0.breeds = 1_000_000 }) { client, server in
            let list = try client.breedList(PagingOptions(pageSize: 25, prefetchDistance: 50, maxCachedItems: 500))
            _ = await list.wait(for: 10, timeout: hangBound)
            _ = await list.wait(for: 654_321, timeout: hangBound)
            try await waitUntil { list.heldPages.count == 3 + 5 }
            // 0...2 around index 10; 654,271...654,371 is pages 26,170...26,174.
            #expect(list.heldPages == [0, 1, 2, 26_170, 26_171, 26_172, 26_173, 26_174])
            #expect(server.requestCount(path: "/breeds") == 8)
        }
    }

    @Test func itemsHeldNeverExceedTheBudgetAndDroppedPagesReloadTheSame() async throws {
        try await withMock({ $0.breeds = 1_000_000 }) { client, _ in
            let list = try client.breedList(PagingOptions(pageSize: 20, prefetchDistance: 20, maxCachedItems: 100))
            let most = Locked(0)
            list.setListener { _ in most.withLock { $0 = max($0, list.heldItemCount) } }
            let firstPage = try await (0..<20).asyncMap { try #require(await list.wait(for: $0, timeout: hangBound).item) }
            for index in stride(from: 0, to: 2000, by: 7) { _ = await list.wait(for: index, timeout: hangBound) }
            #expect(!list.heldPages.contains(0))
            let again = try await (0..<20).asyncMap { try #require(await list.wait(for: $0, timeout: hangBound).item) }
            #expect(again == firstPage)
            #expect(most.withLock { $0 } <= 100)
            #expect(list.heldItemCount <= 100)
        }
    }

    @Test func aFailedPageStaysFailedUntilRetryAndOthersLoad() async throws {
        try await withMock({ $0.failFirst = 1; $0.faults = [.serverError] }) { client, server in
            let list = try client.breedList(PagingOptions(pageSize: 10, prefetchDistance: 0, maxCachedItems: 50))
            let failed = await list.wait(for: 3, timeout: hangBound)
            guard case .failed(.http(500, _, _, _)) = failed else { Issue.record("expected HTTP 500, got \(failed)"); return }
            #expect(list.item(at: 5).status == .http)
            #expect(server.requestCount(path: "/breeds") == 1)
            #expect(await list.wait(for: 42, timeout: hangBound).item == BundledCatalog.breeds[42])
            list.retry()
            #expect(await list.wait(for: 3, timeout: hangBound).item == BundledCatalog.breeds[3])
            #expect(server.requestCount(path: "/breeds") == 3)
        }
    }

    @Test func sixteenTasksOnOverlappingIndicesFetchEachPageOnce() async throws {
        try await withMock({ $0.breeds = 100_000; $0.latency = .milliseconds(20) }) { client, server in
            let list = try client.breedList(PagingOptions(pageSize: 25, prefetchDistance: 50, maxCachedItems: 1000))
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        for step in 0..<40 {
                            let index = (worker * 37 + step * 11) % 400
                            _ = await list.wait(for: index, timeout: hangBound)
                        }
                    }
                }
            }
            // Indices 0..<400 with 50 ahead: pages 0...17.
            try await waitUntil { list.heldPages.count == 18 }
            #expect(list.heldPages == Array(0...17))
            #expect(server.requestCount(path: "/breeds") == 18)
        }
    }

    @Test func readersFarApartOnASmallBudgetAllGetTheirItems() async throws {
        // Four windows cannot fit in 20 items: each reader keeps dropping the others' pages,
        // and a waiter must still get its item rather than sleep out its timeout.
        try await withMock({ $0.latency = .milliseconds(20) }) { client, _ in
            let list = try client.breedList(PagingOptions(pageSize: 5, prefetchDistance: 5, maxCachedItems: 20))
            let served = await withTaskGroup(of: Int.self) { group in
                for reader in 0..<4 {
                    group.addTask {
                        var right = 0
                        for step in 0..<25 {
                            let index = (reader * 24 + step * 7) % BundledCatalog.breeds.count
                            if await list.wait(for: index, timeout: hangBound).item == BundledCatalog.breeds[index] { right += 1 }
                        }
                        return right
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(served == 100)
            #expect(list.heldItemCount <= 20)
        }
    }

    @Test func theListenerHearsLoadedFailedAndDroppedRanges() async throws {
        let events = Locked<[PagingEvent]>([])
        try await withMock({ $0.failFirst = 1; $0.faults = [.serverError] }) { client, _ in
            let list = try client.breedList(PagingOptions(pageSize: 10, prefetchDistance: 0, maxCachedItems: 10))
            list.setListener { event in events.withLock { $0.append(event) } }
            _ = await list.wait(for: 25, timeout: hangBound)
            _ = await list.wait(for: 95, timeout: hangBound)
            _ = await list.wait(for: 41, timeout: hangBound)
        }
        let heard = events.withLock { $0 }.map { "\($0.kind) \($0.first)+\($0.count)" }
        #expect(heard == ["failed 20+10", "loaded 90+8", "dropped 90+8", "loaded 40+10"])
    }

    @Test func theEndOfTheListIsNotFound() async throws {
        try await withMock { client, _ in
            let list = try client.breedList(PagingOptions(pageSize: 25, prefetchDistance: 0, maxCachedItems: 100))
            #expect(list.count == nil)
            #expect(await list.wait(for: 500, timeout: hangBound) == .pastEnd)
            #expect(list.count == BundledCatalog.breeds.count)
            #expect(list.item(at: BundledCatalog.breeds.count) == .pastEnd)
            #expect(list.item(at: -1) == .pastEnd)
            #expect(list.item(at: -1).status == .notFound)
            let last = BundledCatalog.breeds.count - 1
            #expect(await list.wait(for: last, timeout: hangBound).item == BundledCatalog.breeds[last])
        }
    }

    @Test func aServerCapOnPageSizeIsAdopted() async throws {
        try await withMock({ $0.maxLimit = 20 }) { client, _ in
            let list = try client.breedList(PagingOptions(pageSize: 50, prefetchDistance: 0, maxCachedItems: 100))
            #expect(await list.wait(for: 45, timeout: hangBound).item == BundledCatalog.breeds[45])
            #expect(list.pageSize == 20)
            #expect(list.heldPages == [2])
        }
    }

    @Test func factsCanBeFilteredByLength() async throws {
        try await withMock { client, _ in
            let list = try client.factList(PagingOptions(pageSize: 10, prefetchDistance: 0, maxCachedItems: 10), maxLength: 70)
            let expected = BundledCatalog.facts(maxLength: 70)
            #expect(await list.wait(for: 3, timeout: hangBound).item == expected[3])
            #expect(list.count == expected.count)
        }
    }

    @Test func waitingGivesUpAtTheTimeoutWithPending() async throws {
        try await withMock({ $0.latency = .seconds(3) }) { client, _ in
            let start = ContinuousClock.now
            let list = try client.breedList()
            #expect(await list.wait(for: 0, timeout: .milliseconds(200)) == .pending)
            let waited = ContinuousClock.now - start
            // At its timeout, not when the page came (3 s after the list asked for it).
            #expect(waited >= .milliseconds(200) && waited < .seconds(3), "waited \(waited)")
            list.close()
        }
    }

    @Test func closingWakesWaitersWithCancelled() async throws {
        try await withMock({ $0.latency = .seconds(3) }) { client, server in
            let list = try client.breedList()
            let waiter = Task { await list.wait(for: 0, timeout: hangBound) }
            // Closed while the page is 3 s away; had the waiter not started waiting by then,
            // it finds the list closed, which answers the same.
            try await waitUntil { server.requestCount(path: "/breeds") > 0 }
            list.close()
            #expect(await waiter.value == .failed(.cancelled))
            #expect(list.item(at: 0) == .failed(.cancelled))
        }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
