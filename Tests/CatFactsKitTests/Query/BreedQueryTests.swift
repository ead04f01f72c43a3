@testable import CatFactsKit
import CatFactsMock
import Testing

@Suite("Queries over the bundled catalog, served by the mock")
struct BreedQueryTests {
    private func answer(_ build: (inout BreedQuery) -> Void) async throws -> BreedQueryResult {
        try await withMock { client, _ in
            var query = BreedQuery()
            build(&query)
            return try await client.query(query)
        }
    }

    @Test func groupingByOriginAscendsAndLeavesOutBreedsWithoutIt() async throws {
        guard case .groups(let groups) = try await answer({ $0.groupBy = .origin }) else { Issue.record("no groups"); return }
        #expect(groups.map(\.key) == ["Crossbreed", "Hybrid", "Mutation", "Natural", "Natural/Standard"])
        #expect(groups.map(\.items.count) == [30, 4, 17, 39, 2])
        #expect(groups[1].items.map(\.name) == ["Bengal", "Chausie", "Kanaani", "Savannah"])
        #expect(groups[4].items.map(\.name) == ["Abyssinian", "Aegean"])
    }

    @Test func groupsSortInsideByTheSortField() async throws {
        let result = try await answer { $0.groupBy = .country; $0.whereValues = [.country: "thailand"]; $0.sortBy = .breed; $0.descending = true }
        #expect(result == .groups([BreedGroup(key: "Thailand", items: ["Thai Lilac", "Thai", "Suphalak", "Siamese", "Sam Sawet",
                                                                         "Korn Ja", "Korat", "Khao Manee"].map(breed))]))
    }

    @Test func sortingByCountryPutsBreedsWithoutOneLastAndBreaksTiesByName() async throws {
        let names = try await answer { $0.sortBy = .country }.breeds.map(\.name)
        #expect(names.count == 98)
        #expect(Array(names.suffix(6)) == ["European Shorthair", "Javanese", "Oriental Bicolor", "Oriental Longhair",
                                            "Oriental Shorthair", "Somali"])
        let descending = try await answer { $0.sortBy = .country; $0.descending = true }.breeds.map(\.name)
        #expect(Array(descending.suffix(6)) == Array(names.suffix(6)))
        #expect(descending.first.map(breed)?.country == "United States")
    }

    @Test func filteringKeepsFieldsContainingTheValueAndThosePresent() async throws {
        let names = try await answer { $0.whereValues = [.coat: "LONG"]; $0.present = [.pattern]; $0.limit = 5 }.breeds.map(\.name)
        #expect(names == ["Aegean", "American Bobtail", "American Curl", "Balinese", "Birman"])
    }

    @Test func prefixSearchIsCaseInsensitiveAndLimited() async throws {
        let names = try await answer { $0.search = "SI"; $0.limit = 10 }.breeds.map(\.name)
        #expect(names == ["Siamese", "Siberian", "Singapura"])
        #expect(try await answer { $0.search = "xq" }.breeds.isEmpty)
    }

    private func breed(_ name: String) -> Breed {
        BundledCatalog.breeds.first { $0.name == name } ?? Breed(name: "missing: \(name)")
    }
}

@Suite("Query building blocks")
struct QueryBuildingBlockTests {
    @Test func naturalOrderReadsNumbersAsNumbersAndIgnoresCaseAndAccents() {
        let names = ["Item 10", "item 9", "Ítem 2", "Item 1", "Item 010b", "Item 10a", "Ab", "ab 2"]
        let sorted = names.sorted { NaturalOrder.precedes(TextFolding.fold($0), TextFolding.fold($1)) }
        #expect(sorted == ["Ab", "ab 2", "Item 1", "Ítem 2", "item 9", "Item 10", "Item 10a", "Item 010b"])
    }

    @Test func foldingDropsCaseAndDiacritics() {
        #expect(TextFolding.fold("Ébène Île") == "ebene ile")
        #expect(TextFolding.fold("ABYSSINIAN") == "abyssinian")
    }

    @Test func aDeniedPrefixAnswersLongerOnesWithoutSearching() {
        let view = BreedCatalogView(breeds: BundledCatalog.breeds)
        #expect(view.search(prefix: "xq").isEmpty)
        let probes = view.indexProbes
        #expect(view.search(prefix: "xqz").isEmpty)
        #expect(view.search(prefix: "XQZY").isEmpty)
        #expect(view.indexProbes == probes)
        #expect(view.search(prefix: "Sia").map(\.name) == ["Siamese"])
        #expect(view.indexProbes > probes)
        // A new catalog starts with no denials.
        let fresh = BreedCatalogView(breeds: [Breed(name: "Xqz Cat")])
        #expect(fresh.search(prefix: "xqz").map(\.name) == ["Xqz Cat"])
    }

    @Test func theDenyListForgetsLongerPrefixesItCovers() {
        var list = PrefixDenyList()
        list.deny("abc")
        list.deny("ab")
        #expect(list.covers("ab") && list.covers("abc") && list.covers("abz"))
        #expect(!list.covers("a"))
        #expect(!list.covers("b"))
    }
}
