
/// The breeds a client has seen, by name: the API has no detail or search endpoint,
/// so a breed's detail (and, later, queries) come from here.
///
/// Bounded, so a client walking a list of millions keeps a few hundred kilobytes here, not
/// the list: past `capacity` names it stops adding, and lookups that miss fetch again.
/// The real service has about a hundred breeds.
final class KnownBreeds: Sendable {
    private struct State {
        var byName: [String: Breed] = [:]
        /// Every breed of the collection has been seen (a walk reached the last page).
        var complete = false
    }

    private let state = Locked(State())
    let capacity: Int

    init(capacity: Int = 2_000) {
        self.capacity = capacity
    }

    func add(_ breeds: [Breed]) {
        state.withLock { state in
            for breed in breeds {
                guard state.byName.count < capacity else { return }
                state.byName[TextFolding.nameKey(breed.breed)] = breed
            }
        }
    }

    /// The breed whose ``TextFolding/nameKey(_:)`` is `key`.
    func breed(forKey key: String) -> Breed? {
        state.withLock { $0.byName[key] }
    }

    /// Whether it holds as many breeds as it may: adding more does nothing.
    var isFull: Bool { state.withLock { $0.byName.count >= capacity } }

    var isComplete: Bool { state.withLock { $0.complete && $0.byName.count < capacity } }

    func markComplete() {
        state.withLock { $0.complete = true }
    }
}
