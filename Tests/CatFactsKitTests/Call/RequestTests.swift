@testable import CatFactsKit
import Foundation
import Testing

@Suite("What the client sends, and what it refuses to send")
struct RequestTests {
    @Test func requestsCarryTheUserAgentAndAcceptJSON() async throws {
        let transport = ScriptedTransport(status: 200, body: Fixtures.breedsPerPageNumber)
        let client = try CatFactsClient(transport: transport)
        _ = try await client.breeds(page: 4)
        let headers = try #require(transport.requests.first).headers
        #expect(headers["User-Agent"] == "CatFacts/\(LibraryVersion.string) (+https://github.com/catfacts/catfacts)")
        #expect(headers["Accept"] == "application/json")
    }

    @Test func theDefaultServerIsTheRealService() async throws {
        let transport = ScriptedTransport(status: 200, body: Fixtures.randomFact)
        let client = try CatFactsClient(transport: transport)
        _ = try await client.randomFact()
        #expect(transport.requests.first?.url.absoluteString == "https://catfact.ninja/fact")
    }

    @Test func queryParametersAreSentAsTheAPINamesThem() async throws {
        let transport = ScriptedTransport(status: 200, body: Fixtures.factsWithUnicode)
        let client = try CatFactsClient(options: ClientOptions(baseURL: "http://127.0.0.1:9/"), transport: transport)
        _ = try await client.facts(page: 3, limit: 2, maxLength: 80)
        _ = try await client.facts(page: 1, limit: 2, maxLength: 0)
        #expect(transport.requests.map(\.url.absoluteString) == [
            "http://127.0.0.1:9/facts?page=3&limit=2&max_length=80",
            "http://127.0.0.1:9/facts?page=1&limit=2",
        ])
    }

    @Test func aPathPrefixIsKeptAndMetricsStillNameTheEndpoint() async throws {
        let transport = ScriptedTransport(status: 200, body: Fixtures.breedsPerPageNumber)
        let client = try CatFactsClient(options: ClientOptions(baseURL: "http://proxy:8080/catfacts/"), transport: transport)
        _ = try await client.breeds(page: 4)
        #expect(transport.requests.first?.url.absoluteString == "http://proxy:8080/catfacts/breeds?page=4")
        #expect(client.metrics.endpoints().map(\.endpoint) == ["/breeds"])
    }

    @Test(arguments: ["ftp://catfact.ninja", "file:///etc/passwd", "catfact.ninja", "", "http://", "https://x/?q=1"])
    func baseURLsOtherThanHTTPAreRefused(_ url: String) {
        #expect(throws: CatFactsError.self) { try CatFactsClient(options: ClientOptions(baseURL: url)) }
        do {
            _ = try CatFactsClient(options: ClientOptions(baseURL: url))
        } catch {
            #expect(error.status == .argument)
            #expect(error.description.contains("'\(url)'"))
        }
    }

    @Test func badPagesAndLimitsAreArgumentErrorsWithoutARequest() async throws {
        let transport = ScriptedTransport(status: 200, body: Fixtures.breedsPerPageNumber)
        let client = try CatFactsClient(transport: transport)
        #expect(await caught { try await client.breeds(page: 0) } == .argument("page 0: pages are numbered from 1"))
        #expect(await caught { try await client.breeds(page: 1, limit: -5) } == .argument("limit -5: a page holds at least 1 item"))
        #expect(await caught { try await client.facts(maxLength: -1) }?.status == .argument)
        #expect(transport.requests.isEmpty)
        #expect(client.metrics.endpoints().isEmpty)
    }

    @Test func zeroTimeoutsAreRefused() {
        let limits = TransportLimits(connectTimeout: .zero)
        #expect(throws: CatFactsError.invalidOption(.connectTimeout, value: "0", problem: "must be in 1..86400000")) {
            try CatFactsClient(options: ClientOptions(limits: limits))
        }
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = Timestamp(timeIntervalSince1970: 1_000_000_000)
        #expect(RetryAfter.seconds("7", now: now) == 7)
        #expect(RetryAfter.seconds("Sun, 09 Sep 2001 01:47:00 GMT", now: now) == 20)
        #expect(RetryAfter.seconds("Sat, 08 Sep 2001 00:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        #expect(RetryAfter.seconds(nil, now: now) == nil)
        #expect(RetryAfter.seconds("-3", now: now) == nil)
    }
}
