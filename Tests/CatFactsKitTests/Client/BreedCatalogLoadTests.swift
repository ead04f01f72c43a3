@testable import CatFactsKit
import CatFactsMock
import Testing

@Suite("The breed catalog: every page once, several at a time, in the server's order")
struct BreedCatalogLoadTests {
    @Test func everyPageIsFetchedOnceAFewAtATimeAndTheBreedsKeepTheServersOrder() async throws {
        let inFlight = Locked((now: 0, most: 0))
        try await withMock({ $0.breeds = 4500; $0.maxLimit = 500; $0.latency = .milliseconds(100) }) { client, _ in
            client.setActivityListener { activity in
                inFlight.withLock { count in
                    switch activity.phase {
                    case .began: count.now += 1
                    case .ended: count.now -= 1
                    }
                    count.most = max(count.most, count.now)
                }
            }
            let view = try await client.breedCatalog()
            // Synthetic names end with their 1-based number: the order is the server's.
            let numbers = view.breeds.compactMap { $0.breed.split(separator: " ").last.flatMap { Int($0) } }
            #expect(numbers == Array(1...4500))
            #expect(view.source == .network)
            #expect(client.metrics.endpoints().first { $0.endpoint == "/breeds" }?.requests == 9)
            // Page 1 alone (it says how many pages), then up to a window of the other eight.
            let most = inFlight.withLock { $0.most }
            #expect((2...CatFactsClient.catalogWindow).contains(most), "at most \(most) requests at once")
            #expect(inFlight.withLock { $0.now } == 0)
            // Loaded once: a second call sends nothing.
            _ = try await client.breedCatalog()
            #expect(client.metrics.endpoints().first { $0.endpoint == "/breeds" }?.requests == 9)
        }
    }

    @Test func aPageThatFailsFailsTheLoadWithItsErrorAndTheNextCallLoadsAgain() async throws {
        let transport = PageFailingTransport(CurlTransport(), failing: "page=3&")
        try await withMock({ $0.breeds = 4500; $0.maxLimit = 500 }, transport: transport) { client, _ in
            let error = await caught { try await client.breedCatalog() }
            #expect(error?.status == .http, "\(String(describing: error))")
            transport.heal()
            let view = try await client.breedCatalog()
            #expect(view.breeds.count == 4500)
        }
    }
}

/// Fails with a 500 every request whose URL holds `failing`, until healed.
private final class PageFailingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let failing: String
    private let healed = Locked(false)

    init(_ inner: any HTTPTransport, failing: String) {
        self.inner = inner
        self.failing = failing
    }

    func heal() { healed.withLock { $0 = true } }

    func send(_ request: HTTPRequest, limits: TransportLimits) async throws(CatFactsError) -> HTTPResponse {
        if !healed.withLock({ $0 }), request.url.absoluteString.contains(failing) {
            return HTTPResponse(status: 500, headers: [:], body: Array("{}".utf8))
        }
        return try await inner.send(request, limits: limits)
    }
}
