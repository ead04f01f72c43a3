/// What a mock server serves: breeds and facts, each bundled or synthetic independently.
struct MockCatalog: Sendable {
    let breeds: any BreedCatalog
    let facts: any FactCatalog

    /// The catalog `configuration` asks for: the bundled one unless a size is given.
    init(_ configuration: MockConfiguration) {
        breeds = configuration.breeds.map { SyntheticBreeds(count: $0) } ?? BundledBreeds()
        facts = configuration.facts.map { SyntheticFacts(count: $0) } ?? BundledFacts()
    }
}
