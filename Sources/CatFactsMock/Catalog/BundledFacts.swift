import CatFactsKit

/// The bundled catalog's facts, the mock's default.
struct BundledFacts: FactCatalog {
    func count(maxLength: Int?) -> Int {
        guard let maxLength, maxLength > 0 else { return BundledCatalog.facts.count }
        return BundledCatalog.facts.lazy.filter { $0.length <= maxLength }.count
    }

    func facts(maxLength: Int?, in range: Range<Int>) -> [Fact] {
        // A few hundred facts: filtering per request costs microseconds.
        Array(BundledCatalog.facts(maxLength: maxLength)[range])
    }
}
