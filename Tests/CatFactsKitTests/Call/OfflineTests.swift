import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("Offline: after failures in a row the client answers at once, and a probe brings it back")
struct OfflineTests {
    @Test func stoppingTheServerTurnsTheClientOfflineAndRestartingItBringsItBack() async throws {
        let server = try await startMock()
        let port = server.port
        let client = try cachingClient(server.baseURL) {
            $0.probeInterval = .milliseconds(200)
            $0.offlineCooldown = .seconds(60)  // only the probe can end it within the test
        }
        let heard = Locked<[Bool]>([])
        client.setOnlineListener { online in heard.withLock { $0.append(online) } }
        let cached = try await client.breeds(page: 1, limit: 5)
        await server.stop()

        for attempt in 1...3 {
            #expect(client.metrics.online == true, "before failure \(attempt)")
            let error = await caught { try await client.breeds(page: 2, limit: 5) }
            #expect(error?.status == .network)
        }
        #expect(client.metrics.online == false)
        #expect(client.metrics.snapshot().online == false)
        #expect(heard.withLock { $0 } == [false])

        let requests = client.metrics.endpoints().first?.requests
        let served = try await client.breeds(page: 1, limit: 5)
        #expect(client.metrics.endpoints().first?.requests == requests)  // at once: nothing was sent
        #expect(served.source == .cache)
        #expect(served.items == cached.items)

        let error = await caught { try await client.breeds(page: 2, limit: 5) }
        guard case .offline? = error else { Issue.record("expected offline, got \(String(describing: error))"); return }
        #expect(client.metrics.endpoints().first?.requests == requests)  // nothing was sent

        let back = try await startMock(port: port)
        defer { Task { await back.stop() } }
        try await waitUntil { client.metrics.online }  // the probe, every 200 ms, finds it
        #expect(client.metrics.online == true)
        #expect(heard.withLock { $0 } == [false, true])
        #expect(try await client.breeds(page: 2, limit: 5).source == .network)
        await back.stop()
    }

    @Test func offlineWithTheFallbackAnswersFromTheCatalog() async throws {
        let server = try await startMock()
        let client = try cachingClient(server.baseURL) { $0.offlineFallback = true; $0.offlineAfterFailures = 1 }
        await server.stop()
        let first = try await client.breeds(page: 1, limit: 5)  // the failure that turns it offline
        #expect(first.source == .offlineCatalog)
        #expect(client.metrics.online == false)
        let requests = client.metrics.endpoints().map(\.requests).reduce(0, +)
        let page = try await client.facts(page: 1, limit: 5)
        #expect(client.metrics.endpoints().map(\.requests).reduce(0, +) == requests)  // at once: nothing was sent
        #expect(page.source == .offlineCatalog)
        #expect(try await client.randomFact().length > 0)
    }

    @Test func theProbeStopsWhenTheClientIsGone() async throws {
        let server = try await startMock()
        let url = server.baseURL
        await server.stop()
        weak var gone: CatFactsClient?
        do {
            let client = try cachingClient(url) { $0.offlineAfterFailures = 1; $0.probeInterval = .milliseconds(20) }
            _ = await caught { try await client.breeds() }
            #expect(client.metrics.online == false)
            gone = client
        }
        try await waitUntil { gone == nil }  // the probe holds it weakly: nothing keeps it
        #expect(gone == nil)
    }
}
