import CatFactsKit

/// The facts the mock serves, by position within those that pass a `max_length` filter.
///
/// `maxLength` follows the API: `nil`, 0 or less means no filter; otherwise only facts with
/// `length <= maxLength` count, in catalog order.
protocol FactCatalog: Sendable {
    /// How many facts pass the filter.
    func count(maxLength: Int?) -> Int
    /// The passing facts at 0-based positions `range` among the passing ones; `range` lies
    /// within `0..<count(maxLength:)`.
    func facts(maxLength: Int?, in range: Range<Int>) -> [Fact]
}
