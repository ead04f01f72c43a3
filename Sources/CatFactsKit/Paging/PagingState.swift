/// One page load: which page (from 0), at which size, and which attempt, so a late answer
/// for a page that was dropped or resized meanwhile is recognised and ignored.
struct PageLoad: Sendable, Hashable {
    let page: Int
    let limit: Int
    let generation: Int
}

/// What an access decided, to be done outside the lock.
struct PagingWork {
    var loads: [PageLoad] = []
    var cancels: [Task<Void, Never>] = []
    var events: [PagingEvent] = []
}

/// A ``PagedList``'s state, a plain value mutated only under its lock. Pages are numbered
/// from 0 here; the server's are from 1.
struct PagingState<Item: Sendable> {
    enum Slot {
        case loading(generation: Int, task: Task<Void, Never>?)
        case loaded([Item])
        case failed(CatFactsError)
    }

    private(set) var pageSize: Int
    private(set) var total: Int?
    private(set) var heldItems = 0
    private(set) var lastAccess = 0
    private var slots: [Int: Slot] = [:]
    private var generation = 0
    private var closed = false
    private var waiters: [Int: (index: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextWaiterID = 0

    init(pageSize: Int) {
        self.pageSize = pageSize
    }

    var heldPages: [Int] {
        slots.compactMap { page, slot in if case .loaded = slot { page } else { nil } }.sorted()
    }

    // MARK: Access

    /// The state of `index`, and the loads, cancellations and drops that keep the window
    /// around it loaded within the item budget.
    mutating func access(_ index: Int, options: PagingOptions) -> (ItemState<Item>, PagingWork) {
        var work = PagingWork()
        if closed { return (.failed(.cancelled), work) }
        if index < 0 { return (.pastEnd, work) }
        if let total, index >= total { return (.pastEnd, work) }
        lastAccess = index
        let current = index / pageSize
        let answer: ItemState<Item>
        switch slots[current] {
        case .loaded(let items):
            let offset = index - current * pageSize
            answer = offset < items.count ? .loaded(items[offset]) : .pastEnd
        case .loading, nil:
            answer = .pending
        case .failed(let error):
            answer = .failed(error)
        }
        let keep = windowPages(around: index, current: current, options: options)
        for page in keep where slots[page] == nil {
            generation += 1
            slots[page] = .loading(generation: generation, task: nil)
            work.loads.append(PageLoad(page: page, limit: pageSize, generation: generation))
        }
        makeRoom(keeping: keep, around: current, budget: options.maxCachedItems, into: &work)
        return (answer, work)
    }

    /// The pages to hold for an access: the current one, then the others within the
    /// prefetch distance, nearest first (ahead before behind), while the budget allows.
    private func windowPages(around index: Int, current: Int, options: PagingOptions) -> Set<Int> {
        let first = max(0, index - options.prefetchDistance) / pageSize
        var last = (index + options.prefetchDistance) / pageSize
        if let total { last = min(last, max(0, (total - 1) / pageSize)) }
        let others = (first...max(first, last)).filter { $0 != current }.sorted { a, b in
            let (da, db) = (abs(a - current), abs(b - current))
            return da != db ? da < db : a > b
        }
        var keep: Set<Int> = [current]
        var used = cost(of: current)
        for page in others {
            let price = cost(of: page)
            guard used + price <= options.maxCachedItems else { break }
            used += price
            keep.insert(page)
        }
        return keep
    }

    /// Items a page holds or will hold: loading and new pages reserve a full page.
    private func cost(of page: Int) -> Int {
        switch slots[page] {
        case .loaded(let items): items.count
        case .failed: 0
        case .loading, nil: pageSize
        }
    }

    /// Drops held and loading pages outside `keep`, farthest from `current` first, until
    /// what is held and reserved fits the budget.
    private mutating func makeRoom(keeping keep: Set<Int>, around current: Int, budget: Int, into work: inout PagingWork) {
        var used = slots.keys.reduce(0) { $0 + cost(of: $1) }
        guard used > budget else { return }
        let candidates = slots.keys.filter { !keep.contains($0) }.sorted { abs($0 - current) > abs($1 - current) }
        for page in candidates where used > budget {
            used -= cost(of: page)
            drop(page, into: &work)
        }
    }

    private mutating func drop(_ page: Int, into work: inout PagingWork) {
        switch slots.removeValue(forKey: page) {
        case .loaded(let items):
            heldItems -= items.count
            if !items.isEmpty {
                work.events.append(PagingEvent(kind: .dropped, first: page * pageSize, count: items.count))
            }
        case .loading(_, let task):
            if let task { work.cancels.append(task) }
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
    mutating func complete(_ load: PageLoad, with result: Result<Page<Item>, CatFactsError>)
        -> ([PagingEvent], [CheckedContinuation<Void, Never>]) {
        guard case .loading(load.generation, _) = slots[load.page] else { return ([], []) }
        var work = PagingWork()
        switch result {
        case .success(let page) where page.perPage < load.limit && page.perPage > 0:
            // The server caps the page size below ours: start over at its size.
            slots.removeValue(forKey: load.page)
            resize(to: page.perPage, into: &work)
            total = page.total
            return (work.events, takeAllWaiters())
        case .success(let page):
            slots[load.page] = .loaded(page.items)
            heldItems += page.items.count
            if total != page.total { learnTotal(page.total, into: &work) }
            work.events.append(PagingEvent(kind: .loaded, first: load.page * pageSize, count: page.items.count))
        case .failure(.cancelled):
            slots.removeValue(forKey: load.page)
        case .failure(let error):
            slots[load.page] = .failed(error)
            work.events.append(PagingEvent(kind: .failed, first: load.page * pageSize, count: pageSize, error: error))
        }
        return (work.events, takeWaiters(onPage: load.page))
    }

    /// A new total: pages wholly past the new end are dropped.
    private mutating func learnTotal(_ newTotal: Int, into work: inout PagingWork) {
        total = newTotal
        let lastPage = newTotal == 0 ? -1 : (newTotal - 1) / pageSize
        for page in slots.keys where page > lastPage { drop(page, into: &work) }
    }

    private mutating func resize(to newSize: Int, into work: inout PagingWork) {
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
    mutating func addWaiter(_ id: Int, for index: Int, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard !closed, case .loading = slots[index / pageSize] else { return false }
        waiters[id] = (index, continuation)
        return true
    }

    mutating func removeWaiter(_ id: Int) -> CheckedContinuation<Void, Never>? {
        waiters.removeValue(forKey: id)?.continuation
    }

    private mutating func takeWaiters(onPage page: Int) -> [CheckedContinuation<Void, Never>] {
        let ids = waiters.filter { $0.value.index / pageSize == page }.map(\.key)
        return ids.compactMap { waiters.removeValue(forKey: $0)?.continuation }
    }

    mutating func takeAllWaiters() -> [CheckedContinuation<Void, Never>] {
        defer { waiters.removeAll() }
        return waiters.values.map(\.continuation)
    }
}
