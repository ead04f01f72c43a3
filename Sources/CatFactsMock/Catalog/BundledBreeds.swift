import CatFactsKit

/// The bundled catalog's breeds, the mock's default.
struct BundledBreeds: BreedCatalog {
    private let all = BundledCatalog.breeds

    var count: Int { all.count }

    func breeds(in range: Range<Int>) -> [Breed] {
        Array(all[range])
    }
}
