@testable import CatFactsKit
import CatFactsMock
import Foundation
import Testing

/// The deadline bounds the whole call: attempts, waits, Retry-After and the pages of a walk.
@Suite("Deadlines", .serialized)
struct DeadlineTests {
    @Test func aServerThatNeverAnswersFailsAtTheDeadlineWhateverTheRetries() async throws {
        try await withMock({ $0.latency = .seconds(5) },
                           options: { $0.deadline = .seconds(1); $0.retry.retries = 5; $0.limits.totalTimeout = .seconds(30) }) { client, server in
            let start = ContinuousClock.now
            let error = await caught { try await client.breeds(limit: 5) }
            let took = ContinuousClock.now - start
            // At the deadline, sooner than the answer 5 s away.
            #expect(took >= .milliseconds(950) && took < .seconds(5), "took \(took)")
            #expect(error?.status == .timeout)
            #expect(error == .deadlinePassed(milliseconds: 1000, attempts: 1, reason: "the last attempt had no answer yet",
                                             url: "\(server.baseURL.absoluteString)/breeds?page=1&limit=5"))
            #expect(error?.description.hasPrefix("the call's deadline of 1000 ms passed after 1 attempt to ") == true)
        }
    }

    @Test func aRetryAfterPastTheDeadlineFailsAtOnceSayingHowLong() async throws {
        // A Retry-After under the retry policy's 30 s cap, past the deadline.
        try await withMock({ $0.failFirst = 1; $0.faults = [.unavailable]; $0.retryAfterSeconds = 25 },
                           options: { $0.deadline = .seconds(10); $0.retry.retries = 3 }) { client, server in
            let start = ContinuousClock.now
            let error = await caught { try await client.facts(page: 1, limit: 5) }
            // At once: sooner than the deadline, which waiting would have reached.
            #expect(ContinuousClock.now - start < .seconds(10))
            guard case .deadlinePassed(10000, 1, let reason, _)? = error else {
                Issue.record("expected the deadline, got \(String(describing: error))"); return
            }
            #expect(reason.hasPrefix("the server asked to retry after 25 s (HTTP 503 from "))
            #expect(server.requestCount(path: "/facts") == 1)
        }
    }

    @Test func theOfflineFallbackAnswersWhenTheDeadlinePasses() async throws {
        try await withMock({ $0.latency = .seconds(3) },
                           options: { $0.deadline = .milliseconds(300); $0.offlineFallback = true }) { client, _ in
            let page = try await client.breeds(page: 1, limit: 5)
            #expect(page.source == .offlineCatalog)
            #expect(page.items == Array(BundledCatalog.breeds.prefix(5)))
        }
    }

    @Test func theWalkOfABreedSearchSharesOneDeadline() async throws {
        // 100 pages of 1000 breeds, 300 ms each: 30 s without a deadline.
        try await withMock({ $0.breeds = 100_000; $0.latency = .milliseconds(300) },
                           options: { $0.deadline = .seconds(1) }) { client, server in
            let start = ContinuousClock.now
            let error = await caught { try await client.breed(named: "no such breed") }
            let took = ContinuousClock.now - start
            #expect(error?.status == .timeout)
            // At the deadline, not one per page (the whole walk takes 30 s).
            #expect(took >= .milliseconds(950) && took < .seconds(10), "took \(took)")
            #expect(server.requestCount(path: "/breeds") <= 4)
        }
    }

    @Test func aZeroDeadlineIsRefused() {
        var options = ClientOptions()
        options.deadline = .zero
        #expect(throws: CatFactsError.invalidOption(.deadline, value: "0", problem: "must be in 1..86400000")) { try CatFactsClient(options: options) }
    }
}
