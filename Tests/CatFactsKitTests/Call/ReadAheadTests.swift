import CatFactsFoundation
import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("Read-ahead: pages asked in order are fetched before they are asked")
struct ReadAheadTests {
    /// The pages requested so far, in the order the requests went out ("breeds 3").
    private static func recordPages(_ client: CatFactsClient) -> Locked<[String]> {
        let pages = Locked<[String]>([])
        client.setActivityListener { activity in
            guard case .began = activity.phase,
                  let url = URL(activity.url), let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems,
                  let page = query.first(where: { $0.name == "page" })?.value else { return }
            pages.withLock { $0.append("\(url.lastPathComponent) \(page)") }
        }
        return pages
    }

    /// Waits until `pages` holds `count` entries; returns them sorted.
    private static func settle(_ pages: Locked<[String]>, count: Int) async throws -> [String] {
        try await waitUntil { pages.withLock { $0.count } >= count }
        // A little longer, so a request that should not be sent has the time to show (it
        // would start with the ones counted: a correct client passes however long this is).
        try await Task.sleep(for: .milliseconds(100))
        return pages.withLock { $0 }.sorted()
    }

    @Test func theSecondPageInOrderStartsTheNextTwoAndTheyAnswerTheCallsThatFollow() async throws {
        try await withMock({ $0.breeds = 100 }, options: { $0.readAhead = 2; $0.cacheMaxBytes = 0 }) { client, server in
            let pages = Self.recordPages(client)
            _ = try await client.breeds(page: 1, limit: 5)
            #expect(try await Self.settle(pages, count: 1) == ["breeds 1"], "one page is not yet a read in order")
            _ = try await client.breeds(page: 2, limit: 5)
            #expect(try await Self.settle(pages, count: 4) == ["breeds 1", "breeds 2", "breeds 3", "breeds 4"])
            // Page 3 comes from the fetch ahead (no cache: only read-ahead can answer it), and
            // asking it moves the window on by one: page 5.
            let third = try await client.breeds(page: 3, limit: 5)
            #expect(third.number == 3 && third.items.first?.breed.hasSuffix(" 11") == true)
            #expect(try await Self.settle(pages, count: 5) == ["breeds 1", "breeds 2", "breeds 3", "breeds 4", "breeds 5"])
            #expect(server.requestCount(path: "/breeds") == 5)
        }
    }

    @Test func nothingIsFetchedPastTheLastPageNorTwice() async throws {
        // 12 breeds in pages of 5: the last page is 3.
        try await withMock({ $0.breeds = 12 }, options: { $0.readAhead = 2; $0.cacheMaxBytes = 0 }) { client, _ in
            let pages = Self.recordPages(client)
            _ = try await client.breeds(page: 1, limit: 5)
            _ = try await client.breeds(page: 2, limit: 5)
            // In order, but the list ends at page 3: one page ahead, not two.
            #expect(try await Self.settle(pages, count: 3) == ["breeds 1", "breeds 2", "breeds 3"])
            let last = try await client.breeds(page: 3, limit: 5)
            #expect(last.items.count == 2)
            #expect(try await Self.settle(pages, count: 3).count == 3, "page 3 came from the fetch ahead")
        }
    }

    @Test func onlyPagesAskedInOrderAreReadAhead() async throws {
        try await withMock({ $0.breeds = 100 }, options: { $0.readAhead = 2; $0.cacheMaxBytes = 0 }) { client, _ in
            let pages = Self.recordPages(client)
            _ = try await client.breeds(page: 5, limit: 5)
            _ = try await client.breeds(page: 1, limit: 5)
            #expect(try await Self.settle(pages, count: 2) == ["breeds 1", "breeds 5"], "5 then 1 is not in order")
            _ = try await client.breeds(page: 2, limit: 5)
            // 1 then 2: pages 3 and 4 ahead; 5 was asked already, so it is not fetched again.
            #expect(try await Self.settle(pages, count: 4) == ["breeds 1", "breeds 2", "breeds 3", "breeds 4", "breeds 5"])
        }
    }

    @Test func anotherLimitOrEndpointIsAnotherList() async throws {
        try await withMock({ $0.breeds = 100 }, options: { $0.readAhead = 2; $0.cacheMaxBytes = 0 }) { client, _ in
            let pages = Self.recordPages(client)
            _ = try await client.breeds(page: 1, limit: 5)
            _ = try await client.breeds(page: 2, limit: 6)
            _ = try await client.facts(page: 3, limit: 5)
            #expect(try await Self.settle(pages, count: 3) == ["breeds 1", "breeds 2", "facts 3"])
        }
    }

    @Test func offReadsNothingAhead() async throws {
        try await withMock({ $0.breeds = 100 }, options: { $0.readAhead = 0; $0.cacheMaxBytes = 0 }) { client, server in
            for page in 1...4 { _ = try await client.breeds(page: page, limit: 5) }
            try await Task.sleep(for: .milliseconds(200))
            #expect(server.requestCount(path: "/breeds") == 4)
        }
    }

    @Test func aWalkReadAheadStillStopsAtItsDeadline() async throws {
        // 100 pages of 1000 breeds, 300 ms each: 30 s without a deadline.
        try await withMock({ $0.breeds = 100_000; $0.latency = .milliseconds(300) },
                           options: { $0.deadline = .seconds(1); $0.readAhead = 2 }) { client, server in
            let start = ContinuousClock.now
            let error = await caught { try await client.breed(named: "no such breed") }
            let took = ContinuousClock.now - start
            #expect(error?.status == .timeout)
            // At the deadline, far sooner than the walk (three pages at a time: 10 s at least).
            #expect(took >= .milliseconds(950) && took < .seconds(9), "took \(took)")
            // The walk's pages and those read ahead of it all stop at the deadline.
            #expect(server.requestCount(path: "/breeds") <= 8)
        }
    }

    @Test func theDepthHasARange() {
        var options = ClientOptions()
        options.readAhead = ClientOptions.maxReadAhead + 1
        #expect(throws: CatFactsError.invalidOption(.readAhead, value: "17", problem: "must be in 0..16")) {
            _ = try CatFactsClient(options: options)
        }
    }
}
