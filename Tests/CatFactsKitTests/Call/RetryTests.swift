@testable import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("Retries, Retry-After and the offline fallback")
struct RetryTests {
    @Test func a429IsRetriedAfterItsRetryAfter() async throws {
        try await withMock({ $0.failFirst = 1; $0.faults = [.rateLimited]; $0.retryAfterSeconds = 1 },
                           options: { $0.retry.retries = 2 }) { client, server in
            let start = ContinuousClock.now
            let page = try await client.breeds(limit: 5)
            #expect(ContinuousClock.now - start >= .milliseconds(950))
            #expect(page.items == Array(BundledCatalog.breeds.prefix(5)))
            let breeds = try #require(client.metrics.endpoints().first)
            #expect((breeds.requests, breeds.errors, breeds.retries) == (2, 1, 1))
            #expect(server.requestCount(path: "/breeds") == 2)
        }
    }

    @Test(arguments: [false, true])
    func a503IsRetriedAfterItsRetryAfterInSecondsOrAsADate(asDate: Bool) async throws {
        try await withMock({ $0.failFirst = 1; $0.faults = [.unavailable]; $0.retryAfterSeconds = 1; $0.retryAfterAsDate = asDate },
                           options: { $0.retry = RetryPolicy(retries: 2, baseDelay: .milliseconds(1)) }) { client, server in
            let start = ContinuousClock.now
            let page = try await client.breeds(limit: 5)
            // Seconds or a date (rounded up to a whole second): the wait is the server's, not a backoff.
            #expect(ContinuousClock.now - start >= .milliseconds(950))
            #expect(page.items == Array(BundledCatalog.breeds.prefix(5)))
            let breeds = try #require(client.metrics.endpoints().first)
            #expect((breeds.requests, breeds.errors, breeds.retries) == (2, 1, 1))
            #expect(server.requestCount(path: "/breeds") == 2)
        }
    }

    @Test func a503AskingForMoreThanTheCapFailsAtOnceSayingHowLong() async throws {
        try await withMock({ $0.failFirst = 1; $0.faults = [.unavailable]; $0.retryAfterSeconds = 600 },
                           options: { $0.retry.retries = 2 }) { client, server in
            let error = await caught { try await client.breeds() }
            #expect(error == .http(status: 503, message: "Service Unavailable",
                                   url: "\(server.baseURL.absoluteString)/breeds?page=1", retryAfter: 600))
            #expect(error?.description.hasSuffix("; it asks to retry after 600 s") == true)
            #expect(server.requestCount() == 1)
        }
    }

    @Test func aResetConnectionIsRetriedUntilTheRetriesRunOut() async throws {
        try await withMock({ $0.failFirst = 5; $0.faults = [.reset] },
                           options: { $0.retry = RetryPolicy(retries: 2, baseDelay: .milliseconds(10)) }) { client, server in
            let error = await caught { try await client.facts() }
            #expect(error?.status == .network)
            #expect(server.requestCount(path: "/facts") == 3)
            #expect(client.metrics.endpoints().first?.retries == 2)
        }
    }

    @Test func aServerErrorIsNotRetried() async throws {
        try await withMock({ $0.failFirst = 1; $0.faults = [.serverError] }, options: { $0.retry.retries = 3 }) { client, server in
            #expect(await caught { try await client.randomFact() }?.status == .http)
            #expect(server.requestCount(path: "/fact") == 1)
        }
    }

    @Test func aRetryAfterPastTheCapFailsAtOnce() async throws {
        try await withMock({ $0.failFirst = 1; $0.faults = [.rateLimited]; $0.retryAfterSeconds = 120 },
                           options: { $0.retry.retries = 2 }) { client, server in
            let start = ContinuousClock.now
            #expect(await caught { try await client.breeds() } == .rateLimited(retryAfter: 120, url: "\(server.baseURL.absoluteString)/breeds?page=1"))
            #expect(ContinuousClock.now - start < .seconds(60))  // not the 120 s it asks for
            #expect(server.requestCount() == 1)
        }
    }

    @Test func backoffIsFullJitterUnderTheCap() {
        let policy = RetryPolicy(retries: 10, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        var random = SystemRandomNumberGenerator()
        for attempt in 0..<10 {
            let ceiling = min(Duration.seconds(1), .milliseconds(100) * (1 << attempt))
            let delay = try! #require(policy.delay(after: .timeout(seconds: 1, url: "u"), attempt: attempt, using: &random))
            #expect(delay >= .zero && delay <= ceiling)
        }
        #expect(policy.delay(after: .timeout(seconds: 1, url: "u"), attempt: 10, using: &random) == nil)
        #expect(policy.delay(after: .decode("x", url: "u"), attempt: 0, using: &random) == nil)
        #expect(policy.delay(after: .http(status: 404, message: "", url: "u"), attempt: 0, using: &random) == nil)
        #expect(policy.delay(after: .http(status: 503, message: "", url: "u"), attempt: 0, using: &random) != nil)
        #expect(policy.delay(after: .rateLimited(retryAfter: 2, url: "u"), attempt: 0, using: &random) == .seconds(2))
    }

    @Test func theOfflineFallbackServesTheBundledCatalogLabelled() async throws {
        let client = try CatFactsClient(options: ClientOptions(baseURL: "http://127.0.0.1:9", retry: RetryPolicy(retries: 0),
                                                               offlineFallback: true))
        let page = try await client.breeds(page: 2, limit: 10)
        #expect(page.source == .offlineCatalog)
        #expect(page.items == Array(BundledCatalog.breeds[10..<20]))
        #expect(page.total == BundledCatalog.breeds.count)
        let facts = try await client.facts(page: 1, limit: 500, maxLength: 50)
        #expect(facts.items == BundledCatalog.facts(maxLength: 50))
        let fact = try await client.randomFact(maxLength: 50)
        #expect(fact.length <= 50)
        #expect(client.metrics.endpoints().map(\.errors) == [1, 1, 1])
    }

    @Test func withoutTheFallbackAnUnreachableServerIsAnError() async throws {
        let client = try CatFactsClient(options: ClientOptions(baseURL: "http://127.0.0.1:9", retry: RetryPolicy(retries: 0)))
        #expect(await caught { try await client.breeds() }?.status == .network)
    }
}
