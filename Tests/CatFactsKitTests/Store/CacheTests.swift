import CatFactsFoundation
import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("The page cache: fresh within the TTL, revalidated after it, stale when the server cannot answer")
struct CacheTests {
    @Test func aPageWithinTheTTLIsServedWithoutARequest() async throws {
        try await withMock { client, server in
            let first = try await client.breeds(page: 2, limit: 5)
            let requests = server.requestCount(path: "/breeds")
            let second = try await client.breeds(page: 2, limit: 5)
            #expect(server.requestCount(path: "/breeds") == requests)
            #expect(first.source == .network)
            #expect(second.source == .cache)
            #expect(second.items == first.items)
            #expect(abs(second.fetchedAt.timeIntervalSince(first.fetchedAt)) < 0.001)
            #expect(client.cacheHits() == 1)
            #expect(client.metrics.endpoints().first?.requests == 1)
        }
    }

    @Test func theQueryIsNormalisedSoParameterOrderDoesNotMatter() {
        let a = CacheKey(origin: "http://127.0.0.1:8106", endpoint: .facts, query: [QueryItem(name: "page", value: "2"), QueryItem(name: "limit", value: "5")])
        let b = CacheKey(origin: "http://127.0.0.1:8106", endpoint: .facts, query: [QueryItem(name: "limit", value: "5"), QueryItem(name: "page", value: "2")])
        #expect(a == b)
        #expect(a.description == "http://127.0.0.1:8106/facts?limit=5&page=2")
    }

    @Test func theOriginIsTheServerWithoutCredentialsNorATrailingSlash() throws {
        let url = try #require(WebAddress(string: "HTTP://reader:s3cret@API.Example.ORG:8080/cat/facts/"))
        #expect(CacheKey.origin(of: url) == "http://api.example.org:8080/cat/facts")
        #expect(CacheKey.origin(of: try #require(WebAddress(string: "https://catfact.ninja"))) == "https://catfact.ninja")
        #expect(CacheKey.origin(of: try #require(WebAddress(string: "http://[::1]:9000"))) == "http://[::1]:9000")
    }

    @Test func twoServersThroughOneCacheFileEachSeeTheirOwnPages() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catfacts-origin-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("cache.sqlite").path
        try await withMock({ $0.breeds = 30 }) { _, synthetic in
            try await withMock({ _ in }) { _, bundled in
                var options = ClientOptions()
                options.cachePath = path
                options.baseURL = synthetic.baseURL.absoluteString
                let first = try CatFactsClient(options: options)
                options.baseURL = bundled.baseURL.absoluteString
                let second = try CatFactsClient(options: options)
                let a = try await first.breeds(page: 1, limit: 5)
                let b = try await second.breeds(page: 1, limit: 5)
                #expect(a.source == .network && b.source == .network)
                #expect(a.total == 30 && b.total == BundledCatalog.breeds.count)
                #expect(b.items == Array(BundledCatalog.breeds.prefix(5)))
                #expect(a.items != b.items)
                // Each is now answered from the one file, still its own.
                #expect(try await first.breeds(page: 1, limit: 5).items == a.items)
                #expect(try await second.breeds(page: 1, limit: 5).items == b.items)
                #expect(try #require(second.store).keys().count == 2)
            }
        }
    }

    @Test func theQueryIsEscapedAsFoundationEscapesIt() throws {
        let allowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))
        let samples = (0..<128).map { String(UnicodeScalar(UInt8($0))) } + ["é", "日本", "🐈", "a b&c=d+e", "%41", "x?y/z"]
        for text in samples {
            let key = CacheKey(origin: "http://127.0.0.1:8106", endpoint: .breeds, query: [QueryItem(name: text, value: text)])
            let escaped = try #require(text.addingPercentEncoding(withAllowedCharacters: allowed))
            #expect(key.description == "http://127.0.0.1:8106/breeds?\(escaped)=\(escaped)")
        }
    }

    @Test func afterTheTTLTheETagRevalidatesAndA304IsACacheHit() async throws {
        try await withMock(options: { $0.cacheTTL = .zero }) { client, server in
            let first = try await client.breeds(page: 1, limit: 5)
            let second = try await client.breeds(page: 1, limit: 5)
            // Sent again (with If-None-Match: the mock answers 304 only to its own ETag).
            #expect(server.requestCount(path: "/breeds") == 2)
            #expect(second.source == .cache)
            #expect(second.items == first.items)
            #expect(second.fetchedAt > first.fetchedAt)  // a 304 refreshes fetched_at
            #expect(client.cacheHits() == 1)
        }
    }

    @Test func aChangedCatalogGivesFreshData() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let a = try await startMock()
            let old = try await cachingClient(a.baseURL) { $0.cachePath = path; $0.cacheTTL = .zero }.breeds(page: 1, limit: 5)
            await a.stop()
            // The same server, its catalog changed.
            let b = try await startMock(port: a.port) { $0.breeds = 500 }
            defer { Task { await b.stop() } }
            let client = try cachingClient(b.baseURL) { $0.cachePath = path; $0.cacheTTL = .zero }
            let new = try await client.breeds(page: 1, limit: 5)
            #expect(new.source == .network)
            #expect(new.total == 500)
            #expect(new.items != old.items)
            // The new body replaced the old one: revalidating it now gives a 304.
            let again = try await client.breeds(page: 1, limit: 5)
            #expect(again.source == .cache)
            #expect(again.items == new.items)
            #expect(b.requestCount(path: "/breeds") == 2)
        }
    }

    @Test func aStoppedServerGetsTheStalePageWithItsRealAge() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let server = try await startMock()
            let cached = try await cachingClient(server.baseURL) { $0.cachePath = path }.breeds(page: 3, limit: 5)
            await server.stop()
            let client = try cachingClient(server.baseURL) { $0.cachePath = path; $0.cacheTTL = .zero }
            let stale = try await client.breeds(page: 3, limit: 5)
            #expect(stale.source == .cache)
            #expect(stale.items == cached.items)
            #expect(abs(stale.fetchedAt.timeIntervalSince(cached.fetchedAt)) < 0.001)
            #expect(client.cacheHits() == 1)
            #expect(client.metrics.endpoints().first?.errors == 1)
        }
    }

    @Test func aServerErrorGetsTheStalePageButADecodeErrorDoesNot() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let good = try await startMock()
            let cached = try await cachingClient(good.baseURL) { $0.cachePath = path }.facts(page: 1, limit: 5)
            await good.stop()
            // The same server (its address: the cache's key), failing in turn.
            for fault in [MockFault.serverError, .rateLimited] {
                let failing = try await startMock(port: good.port) { $0.failRate = 1; $0.faults = [fault] }
                let stale = try await cachingClient(failing.baseURL) { $0.cachePath = path; $0.cacheTTL = .zero }
                    .facts(page: 1, limit: 5)
                #expect(stale.source == .cache, "\(fault)")
                #expect(stale.items == cached.items, "\(fault)")
                await failing.stop()
            }
            let malformed = try await startMock(port: good.port) { $0.failRate = 1; $0.faults = [.malformed] }
            let client = try cachingClient(malformed.baseURL) { $0.cachePath = path; $0.cacheTTL = .zero }
            let error = await caught { try await client.facts(page: 1, limit: 5) }
            #expect(error?.status == .decode)
            await malformed.stop()
        }
    }

    @Test func theSizeCapEvictsTheLeastRecentlyUsedPage() async throws {
        try await withMock({ $0.breeds = 100 }) { probe, server in
            // What three pages take, measured with a roomy cache.
            for page in 1...3 { _ = try await probe.breeds(page: page, limit: 5) }
            let three = try #require(probe.store).totalBytes()
            let client = try cachingClient(server.baseURL) { $0.cacheMaxBytes = three + 40 }
            let store = try #require(client.store)
            for page in 1...3 { _ = try await client.breeds(page: page, limit: 5) }
            #expect(try store.keys().count == 3)
            _ = try await client.breeds(page: 1, limit: 5)  // page 1 is now the most recently used
            _ = try await client.breeds(page: 4, limit: 5)  // page 2 must go
            let keys = try store.keys()
            let origin = CacheKey.origin(of: try #require(WebAddress(server.baseURL)))
            #expect(keys.count == 3)
            #expect(!keys.contains("\(origin)/breeds?limit=5&page=2"))
            #expect(keys.contains("\(origin)/breeds?limit=5&page=1"))
            #expect(keys.last == "\(origin)/breeds?limit=5&page=4")
            #expect(try store.totalBytes() <= three + 40)
        }
    }

    @Test func aCapOfZeroTurnsTheCacheOff() async throws {
        try await withMock(options: { $0.cacheMaxBytes = 0 }) { client, server in
            _ = try await client.breeds(page: 1, limit: 5)
            let second = try await client.breeds(page: 1, limit: 5)
            #expect(second.source == .network)
            #expect(server.requestCount(path: "/breeds") == 2)
            #expect(client.store == nil)
        }
    }

    @Test func randomFactsAreNotCached() async throws {
        try await withMock { client, server in
            _ = try await client.randomFact()
            _ = try await client.randomFact()
            #expect(server.requestCount(path: "/fact") == 2)
            #expect(try #require(client.store).keys().isEmpty)
        }
    }
}
