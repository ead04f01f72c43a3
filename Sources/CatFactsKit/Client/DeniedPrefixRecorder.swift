/// Keeps the prefixes a catalog view denied in the client's cache, so a cache file carries
/// them to the next process. The view (pure, in `Query/`) only reports each new denial; this
/// queues it and writes the queue from a task of its own, so a keystroke never waits on
/// SQLite. A write that fails is counted by the store like any other (the cache's warnings)
/// and the denial stays in the view's memory.
final class DeniedPrefixRecorder: Sendable {
    private let store: ResponseStore
    private let state = Locked(State())

    private struct State {
        var queued: [Denial] = []
        /// The task writing the queue, while there is one.
        var writer: Task<Void, Never>?
    }

    private struct Denial: Sendable {
        let prefix: String
        let catalog: String
    }

    init(store: ResponseStore) {
        self.store = store
    }

    /// The prefixes saved for `catalog`, forgetting those of any other catalog (it changed).
    /// A store that cannot be read starts the view with none (its warnings say why).
    func saved(catalog: String) -> [String] {
        (try? store.deniedPrefixes(catalog: catalog)) ?? []
    }

    /// Queues `prefix` as denied for `catalog` and returns at once.
    func record(_ prefix: String, catalog: String) {
        state.withLock { state in
            state.queued.append(Denial(prefix: prefix, catalog: catalog))
            if state.writer == nil { state.writer = Task.detached { [self] in writeQueue() } }
        }
    }

    /// Returns once every denial recorded before the call is written (or failed).
    func flush() async {
        while let writer = state.withLock({ $0.writer }) { await writer.value }
    }

    private func writeQueue() {
        while true {
            let batch: [Denial] = state.withLock { state in
                defer { state.queued.removeAll() }
                if state.queued.isEmpty { state.writer = nil }
                return state.queued
            }
            if batch.isEmpty { return }
            // Counted by the store's tallies and warnings when it fails.
            for denial in batch { try? store.denyPrefix(denial.prefix, catalog: denial.catalog) }
        }
    }
}
