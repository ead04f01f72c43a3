import CatFactsKit
import Synchronization

/// The breed names the shell has seen, for Tab completion after `show` and `search`.
/// Written by the session, read by readline's completion on the main thread.
final class BreedNames: Sendable {
    private let names = Mutex<Set<String>>([])
    /// Enough for any real catalog; a synthetic one of millions stops adding here.
    static let capacity = 5_000

    init() {}

    /// Remembers the names of `breeds`.
    func add(_ breeds: some Sequence<Breed>) {
        names.withLock { names in
            for breed in breeds where names.count < Self.capacity { names.insert(breed.name) }
        }
    }

    /// The names starting with `prefix`, ignoring case, sorted.
    func starting(with prefix: String) -> [String] {
        let folded = prefix.lowercased()
        return names.withLock { $0.filter { $0.lowercased().hasPrefix(folded) } }.sorted()
    }
}
