/// Search as you type over a catalog of breeds: each keystroke sets the text (``set(_:)``,
/// which never blocks); once the text has stayed unchanged for the debounce interval it is
/// searched (a name prefix, folded as everywhere: ``TextFolding``) and the listener hears the
/// answer — for the latest text only. An answer to an older text is dropped, never delivered:
/// a burst of typing costs one search, and a slow answer never overwrites a newer one.
///
/// The breeds come from a loader (a client's ``CatFactsClient/breedCatalog(refresh:)`` for
/// ``init(client:debounce:limit:fields:listener:)``), whose load starts when the search is
/// made (so it is done or under way when the first key is typed) and is shared by every search
/// (a keystroke never cancels it); offline they are the cached or bundled ones, and each
/// answer says which (``SearchAnswer/source``). The C face's `cf_search_*` and the shell's live
/// search are built on it.
public final class LiveSearch: Sendable {
    /// Loads the breeds to search, once for all searches (again after a load that failed).
    public typealias CatalogLoader = @Sendable () async throws(CatFactsError) -> BreedCatalogView

    /// What the listener hears.
    public typealias Answer = SearchAnswer

    private struct State {
        var generation = 0
        var pending: Task<Void, Never>?
        var catalog: Task<Result<BreedCatalogView, CatFactsError>, Never>?
        var closed = false
    }

    private let debounce: Duration
    private let searcher: Searcher

    /// - Parameters:
    ///   - debounce: how long the text must stay unchanged before it is searched.
    ///   - limit: most breeds per answer.
    ///   - fields: the fields each answered breed keeps (its name always): a list that shows
    ///     names only asks for `[.breed]`, and its answers carry nothing else.
    ///   - catalog: loads the breeds to search; called at once.
    ///   - listener: hears each answer, on a library thread; it may call ``set(_:)``.
    public init(debounce: Duration = .milliseconds(150), limit: Int = 20,
                fields: Set<Breed.Field> = Set(Breed.Field.allCases), catalog: @escaping CatalogLoader,
                listener: @escaping @Sendable (Answer) -> Void) {
        self.debounce = debounce
        self.searcher = Searcher(loadCatalog: catalog, limit: limit, fields: fields)
        searcher.listener.set(listener)
        _ = searcher.catalog()
    }

    deinit {
        searcher.state.withLock { state in
            state.closed = true
            state.pending?.cancel()
        }
    }

    /// Sets the text: the search of the previous text, if still waiting or running, is
    /// cancelled and its answer will not be delivered. Returns at once.
    ///
    /// The waiting search holds the searcher (the state, the listener, the loader), never
    /// this object, so dropping the last reference still ends it (`deinit` cancels it). It
    /// held `self` weakly once, the shape of a leak seen under valgrind elsewhere: a process
    /// that exits while such a task is ending leaves the weak reference's side table behind.
    public func set(_ text: String) {
        let (searcher, debounce) = (self.searcher, self.debounce)
        searcher.state.withLock { state in
            guard !state.closed else { return }
            state.generation += 1
            state.pending?.cancel()
            let generation = state.generation
            state.pending = Task.detached {
                do { try await TimedWait.sleep(for: debounce) } catch { return }
                await searcher.search(text, generation: generation)
            }
        }
    }

    /// Stops: nothing is searched or delivered after it returns, and no listener call is
    /// still running on another thread (a listener may close its own search). Never waits
    /// for the network: a search under way is cancelled, not awaited.
    public func close() {
        let pending = searcher.state.withLock { state -> Task<Void, Never>? in
            state.closed = true
            defer { state.pending = nil }
            return state.pending
        }
        pending?.cancel()
        searcher.listener.clear()
    }

    /// What a search needs, apart from the search object: what its tasks hold.
    private struct Searcher: Sendable {
        let loadCatalog: CatalogLoader
        let limit: Int
        let fields: Set<Breed.Field>
        let state = Locked(State())
        let listener = ListenerSlot<Answer>()
        /// Held while an answer is checked and delivered: without it an older search could pass
        /// its "still the latest?" check, a newer one be set, searched and delivered, and the older
        /// answer follow it (the soak saw it). The listener may call ``LiveSearch/set(_:)`` and
        /// ``LiveSearch/close()``, which do not take it.
        let delivery = Locked(())

        func isLatest(_ generation: Int) -> Bool {
            state.withLock { !$0.closed && $0.generation == generation }
        }

        func search(_ text: String, generation: Int) async {
            guard isLatest(generation) else { return }
            let loaded = await catalog().value
            guard isLatest(generation), !Task.isCancelled else { return }
            let answer: Answer
            switch loaded {
            case .success(let view):
                let found = view.search(prefix: text, limit: limit).map { $0.keeping(fields) }
                answer = Answer(generation: generation, text: text, result: .success(found), source: view.source)
            case .failure(let error):
                // Loaded again by the next search.
                state.withLock { $0.catalog = nil }
                answer = Answer(generation: generation, text: text, result: .failure(error), source: .network)
            }
            delivery.withLock { _ in
                guard isLatest(generation) else { return }
                listener.call([answer])
            }
        }

        /// The catalog's load: started when the search is made (again by the next search after
        /// a load that failed), shared by the searches, not cancelled
        /// by keystrokes.
        func catalog() -> Task<Result<BreedCatalogView, CatFactsError>, Never> {
            state.withLock { state in
                if let loading = state.catalog { return loading }
                let loadCatalog = loadCatalog
                let loading = Task.detached { () -> Result<BreedCatalogView, CatFactsError> in
                    do throws(CatFactsError) {
                        return .success(try await loadCatalog())
                    } catch {
                        return .failure(error)
                    }
                }
                state.catalog = loading
                return loading
            }
        }
    }
}
