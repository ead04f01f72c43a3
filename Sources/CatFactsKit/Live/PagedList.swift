import Dispatch

/// A very long list, loaded a page at a time around where it is read.
///
/// Reading never blocks: ``item(at:)`` answers at once with the item, or `.pending` while
/// its page loads, and every access moves a window of `prefetchDistance` items on each side
/// that the list keeps loaded. Past `maxCachedItems`, pages farthest from the latest access
/// are dropped, so memory follows `maxCachedItems`, never the list's length; a jump far
/// away loads the page under it, not the pages between.
///
/// ```swift
/// let breeds = try client.breedList(PagingOptions(pageSize: 50))
/// if case .loaded(let breed) = breeds.item(at: 654_321) { print(breed.breed) }
/// let state = await breeds.wait(for: 654_321, timeout: .seconds(5))
/// ```
/// Safe to use from many threads and tasks at once. One load per page at a time:
/// concurrent readers of a loading page share its load.
public final class PagedList<Item: Sendable>: Sendable {
    /// Loads page `page` (from 1) of `limit` items.
    public typealias Loader = @Sendable (_ page: Int, _ limit: Int) async throws(CatFactsError) -> Page<Item>
    /// Hears loaded, failed and dropped ranges, on the thread that finished the load.
    public typealias Listener = @Sendable (PagingEvent) -> Void

    private let loader: Loader
    private let options: PagingOptions
    private let state: Locked<PagingState<Item>>
    private let listener = ListenerSlot<PagingEvent>()

    /// Creates a list over `loader`. Nothing loads until the first access.
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` when the options do not fit together.
    public init(options: PagingOptions = PagingOptions(), loader: @escaping Loader) throws(CatFactsError) {
        try options.validate()
        self.options = options
        self.loader = loader
        self.state = Locked(PagingState(pageSize: options.pageSize, maxCachedItems: options.maxCachedItems))
    }

    deinit {
        state.withLock { $0.closeAll() }.forEach { $0.cancel() }
    }

    /// The number of items; `nil` until the first page has loaded.
    public var count: Int? { state.withLock { $0.total } }

    /// Items per page now (the requested size, or the server's cap if lower).
    public var pageSize: Int { state.withLock { $0.pageSize } }

    /// Items held in memory now; never more than `maxCachedItems`.
    public var heldItemCount: Int { state.withLock { $0.heldItems } }

    /// Zero-based numbers of the pages held now, in order.
    public var heldPages: [Int] { state.withLock { $0.heldPages } }

    /// Sets or, with `nil`, removes the listener. A call of the previous listener under way
    /// on another thread may still finish after this returns; after ``close()`` none is.
    public func setListener(_ newListener: Listener?) {
        listener.set(newListener)
    }

    /// The item at `index`, without waiting; starts loading its page and moves the
    /// prefetch window if needed.
    public func item(at index: Int) -> ItemState<Item> {
        let (answer, work) = state.withLock { $0.access(index, options: options) }
        if let work { perform(work) }
        return answer
    }

    /// Up to `limit` items from `index` on, all from `index`'s page (a batch never crosses a
    /// page), without waiting: one access, as ``item(at:)`` makes, for a whole run of items.
    /// The slice shares the page's storage; nothing is copied.
    ///
    /// - Returns: `.loaded` with 1 to `limit` items; otherwise what ``item(at:)`` says of `index`.
    /// - Precondition: `limit` >= 1 (the C face checks it).
    public func items(from index: Int, atMost limit: Int) -> ItemState<ArraySlice<Item>> {
        let (answer, work) = state.withLock { state -> (ItemState<ArraySlice<Item>>, PagingWork<Item>?) in
            let (answer, work) = state.access(index, options: options)
            switch answer {
            case .loaded: return (.loaded(state.loadedItems(from: index, atMost: max(1, limit))), work)
            case .pending: return (.pending, work)
            case .failed(let error): return (.failed(error), work)
            case .pastEnd: return (.pastEnd, work)
            }
        }
        if let work { perform(work) }
        return answer
    }

    /// A run of items as ``items(from:atMost:)`` gives it, or, when the page kept the arena it
    /// was decoded into, as a range of that arena (no values made: a C batch copies its text).
    package enum Run: Sendable {
        case arena(BreedArena, Range<Int>)
        case items(ArraySlice<Item>)
    }

    /// ``items(from:atMost:)``, as a range of the page's arena when it has one.
    package func run(from index: Int, atMost limit: Int) -> ItemState<Run> {
        let (answer, work) = state.withLock { state -> (ItemState<Run>, PagingWork<Item>?) in
            let (answer, work) = state.access(index, options: options)
            switch answer {
            case .loaded:
                if let (arena, range) = state.loadedArena(from: index, atMost: max(1, limit)) {
                    return (.loaded(.arena(arena, range)), work)
                }
                return (.loaded(.items(state.loadedItems(from: index, atMost: max(1, limit)))), work)
            case .pending: return (.pending, work)
            case .failed(let error): return (.failed(error), work)
            case .pastEnd: return (.pastEnd, work)
            }
        }
        if let work { perform(work) }
        return answer
    }

    /// Waits until `index` is no longer pending, for at most `timeout`.
    ///
    /// - Returns: the item's state then: `.pending` only if the timeout passed first,
    ///   `.failed(.cancelled)` if the list was closed or the waiting task cancelled.
    public func wait(for index: Int, timeout: Duration) async -> ItemState<Item> {
        let deadline = ContinuousClock.now + timeout
        while true {
            let answer = item(at: index)
            guard case .pending = answer else { return answer }
            if Task.isCancelled { return .failed(.cancelled) }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return .pending }
            // The state as the page settled: another reader may drop the page again before
            // this one could read it, and it must not have to start over then.
            if let settled = await waitForChange(of: index, atMost: remaining) { return settled }
        }
    }

    /// Forgets every failed page so the next access loads it again, and reloads the
    /// failed pages around the latest access now.
    public func retry() {
        let work = state.withLock { state in
            state.clearFailures()
            return state.access(state.lastAccess, options: options).1
        }
        if let work { perform(work) }
    }

    /// Cancels loads in flight and wakes every waiter; later accesses answer `.failed(.cancelled)`.
    /// Once it returns the listener is never called again (it waits for a call under way on
    /// another thread), so whatever the listener uses may be freed.
    public func close() {
        listener.clear()
        let (tasks, wakes) = state.withLock { state in (state.closeAll(), state.takeAllWaiters()) }
        tasks.forEach { $0.cancel() }
        wakes.forEach { $0.resume() }
    }

    /// Starts and cancels what an access decided, and tells the listener, outside the lock.
    private func perform(_ work: PagingWork<Item>) {
        Loads(loader: loader, state: state, listener: listener).perform(work)
    }

    /// What a load needs, apart from the list: what its task holds. A load holds the list's
    /// parts, never the list, so dropping the last reference still ends the list (`deinit`
    /// cancels its loads, and a load that ends after finds no page waiting for it). Loads
    /// held the list weakly once, the shape of a leak seen under valgrind elsewhere: a process
    /// that exits while such a task is ending leaves the weak reference's side table behind.
    private struct Loads: Sendable {
        let loader: Loader
        let state: Locked<PagingState<Item>>
        let listener: ListenerSlot<PagingEvent>

        func perform(_ work: PagingWork<Item>) {
            for load in work.loads {
                let task = Task { [self] in
                    let result: Result<Page<Item>, CatFactsError>
                    do throws(CatFactsError) {
                        result = .success(try await loader(load.page + 1, load.limit))
                    } catch {
                        result = .failure(error)
                    }
                    perform(state.withLock { $0.complete(load, with: result) })
                }
                let stillWanted = state.withLock { $0.attach(task, to: load) }
                if !stillWanted { task.cancel() }
            }
            work.cancels.forEach { $0.cancel() }
            // The listener hears of a load before its waiters return, so events keep their order.
            listener.call(work.events)
            work.wakes.forEach { $0.resume() }
        }
    }

    /// Sleeps until the page under `index` settles, `atMost` passes, or the task is cancelled.
    /// Returns the index's state as the page settled, or `nil` to look again.
    ///
    /// The timeout is a dispatch timer, cancelled as soon as the wait ends: a cancelled
    /// `Task.sleep` would hold its memory until its deadline, which adds up when a reader
    /// waits for thousands of pages.
    private func waitForChange(of index: Int, atMost limit: Duration) async -> ItemState<Item>? {
        let id = state.withLock { $0.newWaiterID() }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { [state] in
            state.withLock { $0.removeWaiter(id) }?.resume(returning: nil)
        }
        timer.schedule(deadline: .now() + limit.seconds)
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ItemState<Item>?, Never>) in
                let registered = state.withLock { $0.addWaiter(id, for: index, continuation) }
                // Started only once the waiter is registered, so it cannot fire before there is one to wake.
                timer.resume()
                guard registered else { return continuation.resume(returning: nil) }
                // Cancelled before registering: the handler found nothing to wake, so wake it here.
                if Task.isCancelled { state.withLock { $0.removeWaiter(id) }?.resume(returning: nil) }
            }
        } onCancel: {
            state.withLock { $0.removeWaiter(id) }?.resume(returning: nil)
        }
    }
}
