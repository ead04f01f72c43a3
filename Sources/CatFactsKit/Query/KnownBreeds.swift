
/// The breeds a client has seen, by name: the API has no detail or search endpoint,
/// so a breed's detail (and, later, queries) come from here.
///
/// Bounded, so a client walking a list of millions keeps a few hundred kilobytes here, not
/// the list: past `capacity` names it stops adding, and lookups that miss fetch again.
/// The real service has about a hundred breeds.
final class KnownBreeds: Sendable {
    private struct State {
        var byName: [String: Breed] = [:]
        /// Pages added as decoded, not yet filed by name: a page costs nothing here until a
        /// lookup needs it (a C or Python loop over pages never does).
        var pending: [BreedArena] = []
        var pendingCount = 0
        /// Every breed of the collection has been seen (a walk reached the last page).
        var complete = false
        /// A breed was left out for the capacity: the names held are not every name seen.
        var overflowed = false

        /// Files the pending pages' breeds by name, up to the capacity.
        mutating func absorb(capacity: Int) {
            for arena in pending {
                for index in 0..<arena.count {
                    let key = TextFolding.nameKey(arena.name(at: index))
                    guard byName.count < capacity || byName[key] != nil else { overflowed = true; break }
                    byName[key] = arena.breed(at: index)
                }
            }
            pending = []
            pendingCount = 0
        }
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

    /// Adds the breeds of a decoded page when a lookup needs them (the same page added again,
    /// as a cached page is, is held once).
    func add(_ arena: BreedArena) {
        state.withLock { state in
            guard !state.pending.contains(where: { $0 === arena }) else { return }
            // The pending count counts a page fetched twice twice (two arenas of one page):
            // filed first, so a page is refused only when the names held really fill it.
            if state.byName.count + state.pendingCount >= capacity { state.absorb(capacity: capacity) }
            guard state.byName.count < capacity else { state.overflowed = true; return }
            state.pending.append(arena)
            state.pendingCount += arena.count
        }
    }

    /// The breed whose ``TextFolding/nameKey(_:)`` is `key`.
    func breed(forKey key: String) -> Breed? {
        state.withLock { state in
            state.absorb(capacity: capacity)
            return state.byName[key]
        }
    }

    /// Whether it holds as many breeds as it may: adding more does nothing.
    var isFull: Bool { state.withLock { $0.byName.count + $0.pendingCount >= capacity } }

    var isComplete: Bool {
        state.withLock { state in
            state.absorb(capacity: capacity)
            return state.complete && !state.overflowed && state.byName.count < capacity
        }
    }

    func markComplete() {
        state.withLock { $0.complete = true }
    }
}
