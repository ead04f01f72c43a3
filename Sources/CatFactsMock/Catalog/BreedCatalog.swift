import CatFactsKit

/// The breeds the mock serves, by position; the routes neither know nor care whether they
/// are the bundled ones or computed.
protocol BreedCatalog: Sendable {
    /// How many breeds there are.
    var count: Int { get }
    /// The breeds at 0-based positions `range`, which lies within `0..<count`.
    func breeds(in range: Range<Int>) -> [Breed]
}
