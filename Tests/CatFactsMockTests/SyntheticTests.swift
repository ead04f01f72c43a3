import CatFactsKit
import Foundation
import Testing
@testable import CatFactsMock

@Suite("Synthetic catalogs")
struct SyntheticTests {
    @Test("a million breeds: page 40,000 computed from its index, links bounded")
    func millionBreeds() async throws {
        // How fast the far page comes (it costs what the first does) is speed, `make bench`'s
        // business; here: what it holds.
        try await MockHTTP.withMock({ $0.breeds = 1_000_000 }) { server in
            let json = try await MockHTTP.object(server, "/breeds?page=40000&limit=25").json
            #expect(json.int("last_page") == 40_000)
            #expect(json.int("total") == 1_000_000)
            #expect(json.int("from") == 999_976)
            #expect(json.int("to") == 1_000_000)
            let names = json.objects("data").map { $0.string("breed") }
            #expect(names == (999_976...1_000_000).map { SyntheticBreeds.breed(number: $0).breed })
            for (offset, name) in names.enumerated() {
                #expect(name?.hasSuffix(" \(999_976 + offset)") == true)
            }
            let links = json.objects("links")
            #expect(links.count <= 15)
            #expect(links.map { $0.string("label") ?? "" }
                == ["&laquo; Previous", "1", "2", "...", "39991", "39992", "39993", "39994", "39995",
                    "39996", "39997", "39998", "39999", "40000", "Next &raquo;"])
        }
    }

    @Test("synthetic breed names are deterministic, unique and start with varied letters")
    func breedNames() {
        let breeds = SyntheticBreeds(count: 2_000).breeds(in: 0..<2_000)
        #expect(breeds == SyntheticBreeds(count: 2_000).breeds(in: 0..<2_000))
        #expect(Set(breeds.map(\.breed)).count == 2_000)
        #expect(Set(breeds.compactMap(\.breed.first)).count >= 20)
        #expect(breeds[0].breed.hasSuffix(" 1"))
        let fields = breeds.flatMap { [$0.country, $0.origin, $0.coat, $0.pattern] }
        let absent = Double(fields.filter { $0 == nil }.count) / Double(fields.count)
        #expect((0.12...0.22).contains(absent), "about one field in six is absent (\(absent))")
    }

    @Test("synthetic facts with max_length agree with brute force", arguments: [nil, 0, 40, 60, 90, 110, 140, 200, 1_000])
    func factsAgainstBruteForce(_ maximum: Int?) async throws {
        let count = 1_000
        let catalog = SyntheticFacts(count: count)
        let all = (0..<count).map(catalog.fact(at:))
        #expect(all.allSatisfy { $0.length == $0.text.count })
        let expected = all.filter { fact in
            guard let maximum, maximum > 0 else { return true }
            return fact.length <= maximum
        }
        #expect(catalog.count(maxLength: maximum) == expected.count)
        #expect(catalog.facts(maxLength: maximum, in: 0..<expected.count) == expected)

        try await MockHTTP.withMock({ $0.facts = count }) { server in
            let filter = maximum.map { "&max_length=\($0)" } ?? ""
            let (first, _, _) = try await MockHTTP.object(server, "/facts?limit=7\(filter)")
            #expect(first.int("total") == expected.count)
            let lastPage = max(1, (expected.count + 6) / 7)
            #expect(first.int("last_page") == lastPage)
            for page in Set([1, 2, lastPage / 2, lastPage]) where page >= 1 {
                let (json, _, _) = try await MockHTTP.object(server, "/facts?limit=7&page=\(page)\(filter)")
                let slice = expected.dropFirst((page - 1) * 7).prefix(7)
                #expect(json.objects("data").map { $0.string("fact") } == slice.map(\.text), "page \(page)")
                #expect(json.objects("data").map { $0.int("length") } == slice.map(\.length))
            }
        }
    }

    @Test("a million facts filter arithmetically")
    func millionFacts() {
        let catalog = SyntheticFacts(count: 1_000_000)
        let shortest = catalog.templateLengths.min() ?? 0
        let count = catalog.count(maxLength: shortest)
        #expect(count == 125_000)
        let last = catalog.facts(maxLength: shortest, in: (count - 1)..<count)
        #expect(last.first?.text == "Fact #0999994: cats sleep 12–16 hours a day.")
        #expect(last.first?.length == shortest)
    }
}
