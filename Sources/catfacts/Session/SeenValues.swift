import CatFactsKit

/// The breed names and field values the shell has seen, for Tab completion after `show`,
/// `search` and `filter FIELD`. Written by the session, read by readline's completion on
/// the main thread.
final class SeenValues: Sendable {
    private let values = Locked<[Breed.Field: Set<String>]>([:])
    /// Values kept per field: enough for any real catalog; a synthetic one of millions
    /// stops adding here.
    static let capacity = 5_000

    init() {}

    /// Remembers the name and the field values of `breeds`.
    func add(_ breeds: some Sequence<Breed>) {
        values.withLock { values in
            for breed in breeds {
                for field in Breed.Field.allCases {
                    guard let value = breed[field], values[field, default: []].count < Self.capacity else { continue }
                    values[field, default: []].insert(value)
                }
            }
        }
    }

    /// The values of `field` starting with `prefix`, sorted. Text is compared as everywhere in
    /// the library (``TextFolding``): case and accents folded, so "rago" offers "Ragdóll" too.
    func starting(with prefix: String, in field: Breed.Field = .breed) -> [String] {
        let folded = TextFolding.fold(prefix)
        return values.withLock { ($0[field] ?? []).filter { TextFolding.fold($0).hasPrefix(folded) } }.sorted()
    }
}
