import CatFactsKit
import Foundation
import Testing

@Suite("The bundled catalog")
struct CatalogTests {
    @Test func itHoldsAboutAHundredBreedsWithUniqueNames() {
        let names = BundledCatalog.breeds.map { $0.breed.lowercased() }
        #expect((90...110).contains(names.count))
        #expect(Set(names).count == names.count)
        #expect(names == names.sorted())
    }

    @Test func someBreedsLackFieldsAsTheRealDataDoes() {
        let incomplete = BundledCatalog.breeds.filter { breed in Breed.Field.allCases.contains { breed[$0] == nil } }
        #expect(incomplete.count >= 10)
        #expect(BundledCatalog.breeds.allSatisfy { breed in Breed.Field.allCases.allSatisfy { breed[$0] != "" } })
    }

    @Test func itHoldsAtLeast150DistinctFacts() {
        let texts = BundledCatalog.facts.map(\.text)
        #expect(texts.count >= 150)
        #expect(Set(texts).count == texts.count)
        #expect(BundledCatalog.facts.allSatisfy { $0.length == $0.text.count && $0.length > 0 })
    }

    @Test func maxLengthFilters() {
        #expect(BundledCatalog.facts(maxLength: nil) == BundledCatalog.facts)
        #expect(BundledCatalog.facts(maxLength: 0) == BundledCatalog.facts)
        let short = BundledCatalog.facts(maxLength: 70)
        #expect(!short.isEmpty && short.count < BundledCatalog.facts.count)
        #expect(short.allSatisfy { $0.length <= 70 })
    }
}
