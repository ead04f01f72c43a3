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
        #expect(groups[1].items.map(\.breed) == ["Bengal", "Chausie", "Kanaani", "Savannah"])
        #expect(groups[4].items.map(\.breed) == ["Abyssinian", "Aegean"])
    }

    @Test func groupsSortInsideByTheSortField() async throws {
        let result = try await answer { $0.groupBy = .country; $0.whereValues = [.country: "thailand"]; $0.sortBy = .breed; $0.descending = true }
        #expect(result == .groups([BreedGroup(key: "Thailand", items: ["Thai Lilac", "Thai", "Suphalak", "Siamese", "Sam Sawet",
                                                                         "Korn Ja", "Korat", "Khao Manee"].map(breed))]))
    }

    @Test func sortingByCountryPutsBreedsWithoutOneLastAndBreaksTiesByName() async throws {
        let names = try await answer { $0.sortBy = .country }.breeds.map(\.breed)
        #expect(names.count == 98)
        #expect(Array(names.suffix(6)) == ["European Shorthair", "Javanese", "Oriental Bicolor", "Oriental Longhair",
                                            "Oriental Shorthair", "Somali"])
        let descending = try await answer { $0.sortBy = .country; $0.descending = true }.breeds.map(\.breed)
        #expect(Array(descending.suffix(6)) == Array(names.suffix(6)))
        #expect(descending.first.map(breed)?.country == "United States")
    }

    @Test func filteringKeepsFieldsContainingTheValueAndThosePresent() async throws {
        let names = try await answer { $0.whereValues = [.coat: "LONG"]; $0.present = [.pattern]; $0.limit = 5 }.breeds.map(\.breed)
        #expect(names == ["Aegean", "American Bobtail", "American Curl", "Balinese", "Birman"])
    }

    @Test func prefixSearchIsCaseInsensitiveAndLimited() async throws {
        let names = try await answer { $0.search = "SI"; $0.limit = 10 }.breeds.map(\.breed)
        #expect(names == ["Siamese", "Siberian", "Singapura"])
        #expect(try await answer { $0.search = "xq" }.breeds.isEmpty)
    }

    @Test func breedNamesTheNameInTheStructAndInTheFieldsQueriesTake() async throws {
        let siamese = breed("Siamese")
        #expect(siamese.breed == "Siamese" && siamese[.breed] == "Siamese")
        #expect(Breed.Field.allCases.map(\.rawValue) == ["breed", "country", "origin", "coat", "pattern"])
        let names = try await answer { $0.search = "si"; $0.sortBy = .breed; $0.descending = true; $0.present = [.breed] }.breeds
        #expect(names.map(\.breed) == ["Singapura", "Siberian", "Siamese"])
    }

    private func breed(_ name: String) -> Breed {
        BundledCatalog.breeds.first { $0.breed == name } ?? Breed(breed: "missing: \(name)")
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
        #expect(!view.denies("xqz"))
        #expect(view.search(prefix: "xq").isEmpty)
        #expect(view.denies("xqz"))
        #expect(view.denies("XQZY"))
        #expect(view.search(prefix: "xqz").isEmpty)
        #expect(view.search(prefix: "XQZY").isEmpty)
        #expect(!view.denies("Sia"))
        #expect(view.search(prefix: "Sia").map(\.breed) == ["Siamese"])
        // A new catalog starts with no denials.
        let fresh = BreedCatalogView(breeds: [Breed(breed: "Xqz Cat")])
        #expect(fresh.search(prefix: "xqz").map(\.breed) == ["Xqz Cat"])
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
