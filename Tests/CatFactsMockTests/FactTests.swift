import CatFactsKit
import Foundation
import Testing
@testable import CatFactsMock

@Suite("Facts")
struct FactTests {
    @Test("max_length filters before paging", arguments: [40, 80, 120, 1])
    func maxLength(_ maximum: Int) async throws {
        try await MockHTTP.withMock { server in
            let expected = BundledCatalog.facts(maxLength: maximum)
            let (json, _, _) = try await MockHTTP.object(server, "/facts?max_length=\(maximum)&limit=1000")
            #expect(json.int("total") == expected.count)
            let facts = json.objects("data")
            #expect(facts.allSatisfy { ($0.int("length") ?? .max) <= maximum })
            #expect(facts.map { $0.string("fact") } == expected.map(\.text))
            #expect(facts.map { $0.int("length") } == expected.map(\.length))
        }
    }

    @Test("/facts pages the bundled facts, 10 to a page")
    func factsPage() async throws {
        try await MockHTTP.withMock { server in
            let (json, _, _) = try await MockHTTP.object(server, "/facts?page=2")
            let expected = Array(BundledCatalog.facts.dropFirst(10).prefix(10))
            #expect(json.objects("data").map { $0.string("fact") } == expected.map(\.text))
            #expect(json.int("total") == BundledCatalog.facts.count)
        }
    }

    @Test("/fact answers one fact, within max_length, or a 404 when none is short enough")
    func randomFact() async throws {
        try await MockHTTP.withMock { server in
            let (json, _, status) = try await MockHTTP.object(server, "/fact")
            #expect(status == 200)
            let text = try #require(json.string("fact"))
            #expect(BundledCatalog.facts.contains { $0.text == text })
            let shortest = try #require(BundledCatalog.facts.map(\.length).min())
            for _ in 0..<5 {
                let (short, _, _) = try await MockHTTP.object(server, "/fact?max_length=\(shortest + 20)")
                #expect((short.int("length") ?? .max) <= shortest + 20)
            }
            let (none, noneStatus) = try await MockHTTP.request(server, "/fact?max_length=\(shortest - 1)")
            #expect(noneStatus.statusCode == 404)
            #expect(String(decoding: none, as: UTF8.self).hasPrefix(#"{"message":"#))
        }
    }

    @Test("a seed makes /fact repeat")
    func seededFact() async throws {
        func three() async throws -> [String?] {
            try await MockHTTP.withMock({ $0.seed = 42 }) { server in
                var texts: [String?] = []
                for _ in 0..<3 { texts.append(try await MockHTTP.object(server, "/fact").json.string("fact")) }
                return texts
            }
        }
        #expect(try await three() == three())
    }

    @Test("non-ASCII is sent as \\u escapes, the body is pure ASCII")
    func unicodeEscapes() async throws {
        try await MockHTTP.withMock({ $0.facts = 16; $0.breeds = 500 }) { server in
            let (facts, _) = try await MockHTTP.request(server, "/facts?limit=16")
            #expect(facts.allSatisfy { $0 < 0x80 })
            let text = String(decoding: facts, as: UTF8.self)
            #expect(text.contains(#"cat\u2019s"#))
            #expect(text.contains(#"\ud83d\udc08"#), "U+1F408 as a surrogate pair")
            #expect(text.contains(#"km\/h"#))
            let (breeds, _) = try await MockHTTP.request(server, "/breeds?limit=500")
            #expect(breeds.allSatisfy { $0 < 0x80 })
            #expect(String(decoding: breeds, as: UTF8.self).contains(#"C\u00f4te d\u2019Ivoire"#))
        }
    }

    @Test("an absent breed field is sent as an empty string, all five keys present")
    func emptyFields() async throws {
        try await MockHTTP.withMock({ $0.breeds = 60 }) { server in
            let (json, _, _) = try await MockHTTP.object(server, "/breeds?limit=60")
            let breeds = json.objects("data")
            #expect(breeds.allSatisfy { Set($0.keys) == ["breed", "country", "origin", "coat", "pattern"] })
            let fields = breeds.flatMap { item in ["country", "origin", "coat", "pattern"].map { item.string($0) } }
            #expect(fields.allSatisfy { $0 != nil })
            #expect(fields.contains(""))
            let expected = SyntheticBreeds(count: 60).breeds(in: 0..<60)
            #expect(breeds.map { $0.string("country") } == expected.map { $0.country ?? "" })
        }
    }
}
