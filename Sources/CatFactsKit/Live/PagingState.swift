/// One page load: which page (from 0), at which size, and which attempt, so a late answer
/// for a page that was dropped or resized meanwhile is recognised and ignored.
struct PageLoad: Sendable, Hashable {
    let page: Int
    let limit: Int
    let generation: Int
}

/// A waiter to resume outside the lock, with the state of its index when its page
/// settled (`nil`: look again — the page went away, or the wait ended for another reason).
struct Wake<Item: Sendable> {
    let continuation: CheckedContinuation<ItemState<Item>?, Never>
    let state: ItemState<Item>?

    func resume() { continuation.resume(returning: state) }
}

/// What an access or a completion decided, to be done outside the lock.
struct PagingWork<Item: Sendable> {
    var loads: [PageLoad] = []
    var cancels: [Task<Void, Never>] = []
    var events: [PagingEvent] = []
    var wakes: [Wake<Item>] = []
}

/// A ``PagedList``'s state, a plain value mutated only under its lock. Pages are numbered
/// from 0 here; the server's are from 1.
struct PagingState<Item: Sendable> {
    enum Slot {
        case loading(generation: Int, task: Task<Void, Never>?)
        /// The page as loaded: a page of breeds keeps its arena, so a C batch copies its text
        /// and values are made only for single items (once a page).
        case loaded(Page<Item>)
        case failed(CatFactsError)
    }

    private(set) var pageSize: Int
    private(set) var total: Int?
    private(set) var heldItems = 0
    private(set) var lastAccess = 0
    private var slots: [Int: Slot] = [:] {
        didSet { slotsVersion &+= 1 }
    }
    /// Changes with every change of `slots`: an access to the same page as the last one,
    /// with nothing changed since, needs no new window (the common case, and the hot path).
    private var slotsVersion = 0
    private var settledWindow: (span: ClosedRange<Int>, current: Int, version: Int)?
    private var generation = 0
    private var closed = false
    private var waiters: [Int: (index: Int, continuation: CheckedContinuation<ItemState<Item>?, Never>)] = [:]
    private var nextWaiterID = 0
    private let budget: Int

    init(pageSize: Int, maxCachedItems: Int) {
        self.pageSize = pageSize
        self.budget = maxCachedItems
    }

    var heldPages: [Int] {
        slots.compactMap { page, slot in if case .loaded = slot { page } else { nil } }.sorted()
    }

    // MARK: Access

    /// The state of `index`, and the loads, cancellations and drops that keep the window
    /// around it loaded within the item budget.
    /// `nil` work when there is nothing to do, the common case, kept cheap.
    mutating func access(_ index: Int, options: PagingOptions) -> (ItemState<Item>, PagingWork<Item>?) {
        if closed { return (.failed(.cancelled), nil) }
        if index < 0 { return (.pastEnd, nil) }
        if let total, index >= total { return (.pastEnd, nil) }
        // Its page would be number Int.max + 1 (page size 1, index Int.max): none can be.
        if index / pageSize == Int.max { return (.pastEnd, nil) }
        lastAccess = index
        let current = index / pageSize
        let answer = state(of: index) ?? .pending
        let span = windowSpan(around: index, options: options)
        if let settled = settledWindow, settled.span == span, settled.current == current, settled.version == slotsVersion {
            return (answer, nil)
        }
        var work = PagingWork<Item>()
        let keep = windowPages(span, current: current, budget: options.maxCachedItems)
        for page in keep where slots[page] == nil {
            generation += 1
            slots[page] = .loading(generation: generation, task: nil)
            work.loads.append(PageLoad(page: page, limit: pageSize, generation: generation))
        }
        makeRoom(keeping: keep, around: current, into: &work)
        settledWindow = (span, current, slotsVersion)
        return (answer, work)
    }

    /// The items of `index`'s page from `index` on, at most `limit` (>= 1) of them; empty
    /// unless that page is loaded and holds `index`.
    func loadedItems(from index: Int, atMost limit: Int) -> ArraySlice<Item> {
        guard index >= 0 else { return [] }
        let page = index / pageSize
        guard case .loaded(let loaded) = slots[page] else { return [] }
        let offset = index - page * pageSize
        guard offset < loaded.count else { return [] }
        let items = loaded.items
        return items[offset..<(offset + min(limit, items.count - offset))]
    }

    /// ``loadedItems(from:atMost:)`` as the range of the page's arena, when the page kept one:
    /// `nil` when it did not (the caller then uses the items); an empty range when nothing is
    /// loaded there.
    func loadedArena(from index: Int, atMost limit: Int) -> (BreedArena, Range<Int>)? {
        guard index >= 0 else { return nil }
        let page = index / pageSize
        guard case .loaded(let loaded) = slots[page], let arena = loaded.arena else { return nil }
        let offset = index - page * pageSize
        guard offset < arena.count else { return (arena, 0..<0) }
        return (arena, offset..<(offset + min(limit, arena.count - offset)))
    }

    /// What is known of `index` now; `nil` when its page is neither loaded nor failed.
    private func state(of index: Int) -> ItemState<Item>? {
        if let total, index >= total { return .pastEnd }
        let page = index / pageSize
        switch slots[page] {
        case .loaded(let loaded):
            let offset = index - page * pageSize
            return offset < loaded.count ? .loaded(loaded.items[offset]) : .pastEnd
        case .failed(let error):
            return .failed(error)
        case .loading, nil:
            return nil
        }
    }

    /// The pages within the prefetch distance of `index`.
    private func windowSpan(around index: Int, options: PagingOptions) -> ClosedRange<Int> {
        let first = max(0, index - options.prefetchDistance) / pageSize
        let (ahead, overflow) = index.addingReportingOverflow(options.prefetchDistance)
        var last = (overflow ? Int.max : ahead) / pageSize
        if let total { last = min(last, max(0, (total - 1) / pageSize)) }
        return first...max(first, last)
    }

    /// The pages to hold for an access: the current one, then the others of the span,
    /// nearest first (ahead before behind), while the budget allows.
    private func windowPages(_ span: ClosedRange<Int>, current: Int, budget: Int) -> Set<Int> {
        let others = span.filter { $0 != current }.sorted { a, b in
            let (da, db) = (abs(a - current), abs(b - current))
            return da != db ? da < db : a > b
        }
        var keep: Set<Int> = [current]
        var used = cost(of: current)
        for page in others {
            let price = cost(of: page)
            guard used + price <= budget else { break }
            used += price
            keep.insert(page)
        }
        return keep
    }

    /// Items a page holds or will hold: loading and new pages reserve a full page.
    private func cost(of page: Int) -> Int {
        switch slots[page] {
        case .loaded(let loaded): loaded.count
        case .failed: 0
        case .loading, nil: pageSize
        }
    }

    /// Drops held and loading pages outside `keep`, farthest from `current` first, until
    /// what is held and reserved fits the budget. A loading page someone waits for is spared:
    /// cancelling it would starve that reader whenever readers far apart share a small budget.
    private mutating func makeRoom(keeping keep: Set<Int>, around current: Int, into work: inout PagingWork<Item>) {
        var used = slots.keys.reduce(0) { $0 + cost(of: $1) }
        guard used > budget else { return }
        let candidates = slots.keys.filter { !keep.contains($0) && !isAwaitedLoad($0) }
            .sorted { abs($0 - current) > abs($1 - current) }
        for page in candidates where used > budget {
            used -= cost(of: page)
            drop(page, into: &work)
        }
    }

    private func isAwaitedLoad(_ page: Int) -> Bool {
        guard case .loading = slots[page] else { return false }
        return waiters.values.contains { $0.index / pageSize == page }
    }

    /// After a load lands: drops loaded pages farthest from the latest access until the
    /// items held fit the budget again (spared loads can push it over).
    private mutating func trimHeld(sparing page: Int, into work: inout PagingWork<Item>) {
        guard heldItems > budget else { return }
        let current = lastAccess / pageSize
        let loaded = heldPages.filter { $0 != page }.sorted { abs($0 - current) > abs($1 - current) }
        for candidate in loaded where heldItems > budget {
            drop(candidate, into: &work)
        }
    }

    private mutating func drop(_ page: Int, into work: inout PagingWork<Item>) {
        switch slots.removeValue(forKey: page) {
        case .loaded(let loaded):
            heldItems -= loaded.count
            if loaded.count > 0 {
                work.events.append(PagingEvent(kind: .dropped, first: page * pageSize, count: loaded.count))
            }
        case .loading(_, let task):
            if let task { work.cancels.append(task) }
            work.wakes += takeWaiters(onPage: page, state: nil)
        case .failed, nil:
            break
        }
    }

    /// Records the task of a load just started; `false` if the load is no longer wanted.
    mutating func attach(_ task: Task<Void, Never>, to load: PageLoad) -> Bool {
        guard case .loading(load.generation, nil) = slots[load.page] else { return false }
        slots[load.page] = .loading(generation: load.generation, task: task)
        return true
    }

    // MARK: Completion

    /// Files a finished load and says whom to tell.
    mutating func complete(_ load: PageLoad, with result: Result<Page<Item>, CatFactsError>) -> PagingWork<Item> {
        var work = PagingWork<Item>()
        guard case .loading(load.generation, _) = slots[load.page] else { return work }
        switch result {
        case .success(let page) where page.perPage < load.limit && page.perPage > 0:
            // The server caps the page size below ours: start over at its size.
            slots.removeValue(forKey: load.page)
            resize(to: page.perPage, into: &work)
            total = page.total
            work.wakes += takeAllWaiters()
            return work
        case .success(let page):
            slots[load.page] = .loaded(page)
            heldItems += page.count
            if total != page.total { learnTotal(page.total, into: &work) }
            work.events.append(PagingEvent(kind: .loaded, first: load.page * pageSize, count: page.count))
            trimHeld(sparing: load.page, into: &work)
        case .failure(.cancelled):
            slots.removeValue(forKey: load.page)
        case .failure(let error):
            slots[load.page] = .failed(error)
            work.events.append(PagingEvent(kind: .failed, first: load.page * pageSize, count: pageSize, error: error))
        }
        work.wakes += takeWaiters(onPage: load.page)
        return work
    }

    /// A new total: pages wholly past the new end are dropped.
    @_optimize(size)  // once per list
    private mutating func learnTotal(_ newTotal: Int, into work: inout PagingWork<Item>) {
        total = newTotal
        let lastPage = newTotal == 0 ? -1 : (newTotal - 1) / pageSize
        for page in slots.keys where page > lastPage { drop(page, into: &work) }
    }

    private mutating func resize(to newSize: Int, into work: inout PagingWork<Item>) {
        for page in Array(slots.keys) { drop(page, into: &work) }
        pageSize = newSize
    }

    mutating func clearFailures() {
        for (page, slot) in slots { if case .failed = slot { slots.removeValue(forKey: page) } }
    }

    /// Marks the list closed; returns the tasks to cancel.
    mutating func closeAll() -> [Task<Void, Never>] {
        closed = true
        let tasks = slots.values.compactMap { slot -> Task<Void, Never>? in
            if case .loading(_, let task) = slot { task } else { nil }
        }
        slots.removeAll()
        heldItems = 0
        return tasks
    }

    // MARK: Waiters

    mutating func newWaiterID() -> Int {
        nextWaiterID += 1
        return nextWaiterID
    }

    /// Registers a waiter for `index`; `false` when there is nothing to wait for any more.
    mutating func addWaiter(_ id: Int, for index: Int, _ continuation: CheckedContinuation<ItemState<Item>?, Never>) -> Bool {
        guard !closed, case .loading = slots[index / pageSize] else { return false }
        waiters[id] = (index, continuation)
        return true
    }

    mutating func removeWaiter(_ id: Int) -> CheckedContinuation<ItemState<Item>?, Never>? {
        waiters.removeValue(forKey: id)?.continuation
    }

    /// The waiters on `page`, each to be resumed with its index's state now (or `state`).
    private mutating func takeWaiters(onPage page: Int, state override: ItemState<Item>?? = .none) -> [Wake<Item>] {
        let ids = waiters.filter { $0.value.index / pageSize == page }.map(\.key)
        return ids.compactMap { id in
            guard let waiter = waiters.removeValue(forKey: id) else { return nil }
            let state: ItemState<Item>? = switch override {
            case .some(let forced): forced
            case .none: self.state(of: waiter.index)
            }
            return Wake(continuation: waiter.continuation, state: state)
        }
    }

    /// Every waiter, to look again.
    mutating func takeAllWaiters() -> [Wake<Item>] {
        defer { waiters.removeAll() }
        return waiters.values.map { Wake(continuation: $0.continuation, state: nil) }
    }
}
