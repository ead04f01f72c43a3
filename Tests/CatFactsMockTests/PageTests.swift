import CatFactsKit
import Foundation
import Testing
@testable import CatFactsMock

@Suite("Pages, as Laravel writes them")
struct PageTests {
    @Test("/breeds?limit=5&page=2 answers breeds 6–10 in Laravel's shape")
    func breedsPageTwo() async throws {
        try await MockHTTP.withMock { server in
            let (json, text, status) = try await MockHTTP.object(server, "/breeds?limit=5&page=2")
            #expect(status == 200)
            let total = BundledCatalog.breeds.count
            #expect(json.int("current_page") == 2)
            #expect(json.string("per_page") == "5", "per_page is a string when the request has limit")
            #expect(json.int("from") == 6)
            #expect(json.int("to") == 10)
            #expect(json.int("total") == total)
            #expect(json.int("last_page") == (total + 4) / 5)
            let origin = "http://127.0.0.1:\(server.port)"
            #expect(json.string("path") == origin + "/breeds")
            #expect(json.string("first_page_url") == origin + "/breeds?page=1")
            #expect(json.string("prev_page_url") == origin + "/breeds?page=1")
            #expect(json.string("next_page_url") == origin + "/breeds?page=3")
            #expect(text.contains(#""path":"http:\/\/127.0.0.1:\#(server.port)\/breeds""#), "slashes are escaped")

            let data = json.objects("data")
            let expected = Array(BundledCatalog.breeds[5..<10])
            #expect(data.map { $0.string("breed") } == expected.map(\.breed))
            for (item, breed) in zip(data, expected) {
                #expect(item.string("country") == (breed.country ?? ""))
                #expect(item.string("origin") == (breed.origin ?? ""))
                #expect(item.string("coat") == (breed.coat ?? ""))
                #expect(item.string("pattern") == (breed.pattern ?? ""))
            }
        }
    }

    @Test("keys come in Laravel's order")
    func keyOrder() async throws {
        try await MockHTTP.withMock { server in
            let (_, text, _) = try await MockHTTP.object(server, "/breeds?page=2")
            let keys = ["current_page", "data", "first_page_url", "from", "last_page", "last_page_url", "links",
                        "next_page_url", "path", "per_page", "prev_page_url", "to", "total"]
            #expect(text.hasPrefix(#"{"current_page":2,"data":[{"breed":"#))
            let positions = try keys.map { key in
                try #require(text.range(of: "\"\(key)\":")?.lowerBound, "key \(key) missing")
            }
            #expect(positions == positions.sorted())
            let breedKeys = ["breed", "country", "origin", "coat", "pattern"].map { "\"\($0)\":" }
            let firstItem = try #require(text.range(of: "{\"breed\"").map { text[$0.lowerBound...] })
            let itemPositions = try breedKeys.map { try #require(firstItem.range(of: $0)?.lowerBound) }
            #expect(itemPositions == itemPositions.sorted())
        }
    }

    @Test("per_page is the number 25 by default, 10 for facts; limit is capped")
    func defaults() async throws {
        try await MockHTTP.withMock({ $0.maxLimit = 7 }) { server in
            let (breeds, _, _) = try await MockHTTP.object(server, "/breeds")
            #expect(breeds["per_page"] is NSNumber)
            #expect(breeds.int("per_page") == 25)
            #expect(breeds.int("current_page") == 1)
            #expect(breeds.isNull("prev_page_url"))
            let (facts, _, _) = try await MockHTTP.object(server, "/facts")
            #expect(facts.int("per_page") == 10)
            let (capped, _, _) = try await MockHTTP.object(server, "/breeds?limit=5000")
            #expect(capped.string("per_page") == "7")
            #expect(capped.objects("data").count == 7)
        }
    }

    @Test("a page past the end is empty, with null from, to and next")
    func pastTheEnd() async throws {
        try await MockHTTP.withMock { server in
            let (json, _, status) = try await MockHTTP.object(server, "/breeds?page=999")
            #expect(status == 200)
            #expect(json.int("current_page") == 999)
            #expect(json.objects("data").isEmpty)
            #expect(json.isNull("from"))
            #expect(json.isNull("to"))
            #expect(json.isNull("next_page_url"))
            #expect(json.string("prev_page_url")?.hasSuffix("/breeds?page=998") == true)
            #expect(json.int("total") == BundledCatalog.breeds.count)
            let (huge, _, _) = try await MockHTTP.object(server, "/breeds?page=9223372036854775807")
            #expect(huge.objects("data").isEmpty)
        }
    }

    @Test("a page below 1 is page 1")
    func pageBelowOne() async throws {
        try await MockHTTP.withMock { server in
            let (json, _, _) = try await MockHTTP.object(server, "/breeds?page=-3&limit=2")
            #expect(json.int("current_page") == 1)
            #expect(json.objects("data").first?.string("breed") == BundledCatalog.breeds.first?.breed)
        }
    }

    @Test("links: Previous, the page window, Next; the current page is active")
    func links() async throws {
        try await MockHTTP.withMock { server in
            let (json, _, _) = try await MockHTTP.object(server, "/breeds?limit=30&page=2")
            let links = json.objects("links")
            let pages = (BundledCatalog.breeds.count + 29) / 30
            #expect(links.count == pages + 2)
            #expect(links.first?.string("label") == "&laquo; Previous")
            #expect(links.last?.string("label") == "Next &raquo;")
            #expect(links.filter { $0["active"] as? Bool == true }.map { $0.string("label") } == ["2"])
            #expect(links.dropFirst().first?.string("url") == "http://127.0.0.1:\(server.port)/breeds?page=1")
        }
    }

    @Test("the Host header makes the page URLs")
    func hostHeader() async throws {
        try await MockHTTP.withMock { server in
            let (body, _) = try await MockHTTP.request(server, "/breeds", headers: ["Host": "cats.example:81"])
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(json.string("path") == "http://cats.example:81/breeds")
        }
    }
}
