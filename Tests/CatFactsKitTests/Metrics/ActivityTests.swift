import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("The activity listener: each request as it goes out and as it ends")
struct ActivityTests {
    /// What the listener heard: "began ID PATH" / "ended ID ok|STATUS".
    private static func record(_ client: CatFactsClient) -> Locked<[String]> {
        let heard = Locked<[String]>([])
        client.setActivityListener { activity in
            let path = activity.url.path + (activity.url.query.map { "?" + $0 } ?? "")
            let line = switch activity.phase {
            case .began: "began \(activity.id) \(path)"
            case .ended(nil): "ended \(activity.id) ok"
            case .ended(let error?): "ended \(activity.id) \(error.status)"
            }
            heard.withLock { $0.append(line) }
        }
        return heard
    }

    @Test func aResponseOfAnyStatusEndsWithoutAnErrorAndCacheHitsSendNothing() async throws {
        try await withMock({ $0.failFirst = 1; $0.faults = [.serverError] }) { client, _ in
            let heard = Self.record(client)
            #expect(await caught { try await client.breeds(page: 1, limit: 2) }?.status == .http)
            _ = try await client.breeds(page: 1, limit: 2)
            _ = try await client.breeds(page: 1, limit: 2) // from the cache: no request
            #expect(heard.withLock { $0 } == ["began 1 /breeds?page=1&limit=2", "ended 1 ok",
                                              "began 2 /breeds?page=1&limit=2", "ended 2 ok"])
        }
    }

    @Test func aServerThatIsGoneEndsWithTheTransportsErrorAndRetriesAreRequestsOfTheirOwn() async throws {
        let port = try await closedPort()
        let client = try CatFactsClient(options: ClientOptions(baseURL: "http://127.0.0.1:\(port)", retry: RetryPolicy(retries: 1, baseDelay: .milliseconds(1)),
                                                               offlineFallback: false))
        let heard = Self.record(client)
        #expect(await caught { try await client.randomFact() }?.status == .network)
        #expect(heard.withLock { $0 } == ["began 1 /fact", "ended 1 network", "began 2 /fact", "ended 2 network"])
        client.setActivityListener(nil)
        _ = await caught { try await client.randomFact() }
        #expect(heard.withLock { $0.count } == 4)
    }
}
