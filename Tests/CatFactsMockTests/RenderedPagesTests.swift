import Foundation
import Testing
@testable import CatFactsMock

@Suite("Pages rendered once")
struct RenderedPagesTests {
    @Test("a page asked again is served from the render cache, byte for byte; /fact never is")
    func servedAgain() async throws {
        try await MockHTTP.withMock({ $0.breeds = 1000 }) { server in
            let (first, firstResponse) = try await MockHTTP.request(server, "/breeds?page=2&limit=5")
            let (again, againResponse) = try await MockHTTP.request(server, "/breeds?page=2&limit=5")
            #expect(again == first)
            #expect(againResponse.value(forHTTPHeaderField: "ETag") == firstResponse.value(forHTTPHeaderField: "ETag"))
            #expect(try await MockHTTP.object(server, "/_mock/stats").json.int("rendered_pages") == 1)
            _ = try await MockHTTP.request(server, "/breeds?page=3&limit=5")
            _ = try await MockHTTP.request(server, "/facts?max_length=60")
            _ = try await MockHTTP.request(server, "/fact")
            _ = try await MockHTTP.request(server, "/breeds?page=x")  // a 422: not kept
            let stats = try await MockHTTP.object(server, "/_mock/stats").json
            #expect(stats.int("rendered_pages") == 3)
            #expect(stats.int("requests") == 6, "the stats requests are not counted")
        }
    }

    @Test("faults act on kept pages: a truncated fault still cuts the page served from the cache")
    func faultsStillAct() async throws {
        try await MockHTTP.withMock({ $0.failFirst = 2; $0.faults = [.truncated] }) { server in
            let (cut, _) = try await MockHTTP.request(server, "/breeds?limit=20")
            let (cutAgain, _) = try await MockHTTP.request(server, "/breeds?limit=20")
            let (whole, response) = try await MockHTTP.request(server, "/breeds?limit=20")
            #expect(response.statusCode == 200)
            #expect(try JSONSerialization.jsonObject(with: whole) is [String: Any])
            #expect(cut == whole.prefix(whole.count / 2))
            #expect(cutAgain == cut)
            #expect(try await MockHTTP.object(server, "/_mock/stats").json.int("rendered_pages") == 1)
        }
    }

    private static func reply(_ size: Int) -> MockReply {
        MockReply(status: .ok, body: [UInt8](repeating: UInt8(ascii: "x"), count: size))
    }

    private static func key(_ page: Int, origin: String = "http://127.0.0.1:1") -> RenderedPages.Key {
        RenderedPages.Key(path: "/breeds", query: "page=\(page)", origin: origin)
    }

    @Test("the cache keeps at most its bytes and its pages, dropping the oldest first")
    func bounded() {
        let pages = RenderedPages(maxBytes: 250, maxEntries: 100)
        var renders = 0
        func ask(_ page: Int, size: Int = 100) {
            _ = pages.reply(for: Self.key(page)) { renders += 1; return Self.reply(size) }
        }
        ask(1); ask(2); ask(1)
        #expect(renders == 2)
        #expect(pages.count.pages == 2 && pages.count.bytes == 200)
        ask(3)
        #expect(pages.count.pages == 2 && pages.count.bytes == 200)
        ask(2)
        #expect(renders == 3, "page 2 was kept")
        ask(1)
        #expect(renders == 4, "page 1, the oldest, was dropped")
        ask(4, size: 251)
        #expect(renders == 5)
        #expect(pages.count.bytes <= 250, "a page larger than the bound is served, not kept")

        let few = RenderedPages(maxBytes: 1 << 20, maxEntries: 2)
        for page in 1...50 { _ = few.reply(for: Self.key(page)) { Self.reply(10) } }
        #expect(few.count.pages == 2 && few.count.bytes == 20)
    }

    @Test("only 200s are kept, each origin has its own pages, and a zero bound keeps none")
    func whatIsKept() {
        let pages = RenderedPages(maxBytes: 1000, maxEntries: 10)
        _ = pages.reply(for: Self.key(1)) { MockReply.message(.unprocessableContent, "The page must be an integer.") }
        #expect(pages.count.pages == 0)
        let here = pages.reply(for: Self.key(1)) { Self.reply(10) }
        let there = pages.reply(for: Self.key(1, origin: "http://example.test")) { Self.reply(20) }
        #expect(here.reply.body.count == 10 && there.reply.body.count == 20)
        #expect(here.etag != nil && here.etag != there.etag)
        let none = RenderedPages(maxBytes: 0, maxEntries: 10)
        _ = none.reply(for: Self.key(1)) { Self.reply(1) }
        #expect(none.count.pages == 0)
    }
}
