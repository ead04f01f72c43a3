/// Sequential read-ahead, as an operating system reads ahead of a file read in order: a
/// caller that asks for page p and then p+1 of one list (same endpoint, limit and max length)
/// is reading it in order, so the client fetches the next ``depth`` pages in the background
/// and the calls that follow find their page loaded or on its way. The obvious loop
/// (`for p in 1...n { breeds(page: p) }`) then overlaps the server's latency and the
/// decoding with the caller's own work, with no change to the caller.
///
/// Bounded: at most ``depth`` pages per list ahead of the last one asked (a few windows'
/// worth kept until asked), never a page a caller already asked, never past the list's last
/// page, and ``maxStreams`` lists followed at once (the least recently used is forgotten,
/// its pages dropped; with a cache they are still there). A page fetched ahead that fails is not handed out: the
/// call then fetches it itself, with its own deadline and retries. Pages fetched ahead go
/// through the whole pipeline (cache, retries, metrics), so they are counted as requests.
final class ReadAhead: Sendable {
    /// One list read in order: what makes two page calls parts of the same read.
    struct Stream: Hashable, Sendable {
        var endpoint: Endpoint
        var limit: Int?
        var maxLength: Int?
    }

    /// A page on its way: the task fetching it, its result type erased.
    private typealias Pending = Task<any Sendable, Never>

    private struct StreamState {
        var lastAsked: Int
        var lastPage: Int
        var ahead: [Int: Pending] = [:]
        /// Pages callers asked for lately (under way or answered): never fetched ahead, so
        /// callers asking several pages at once (`breeds_pages(parallel:)`) cause no duplicate.
        var asked: Set<Int> = []
        var used: UInt64
    }

    /// Pages fetched ahead of the last one asked, per list (0 turns read-ahead off).
    let depth: Int
    static let maxStreams = 4
    private let state = Locked<(streams: [Stream: StreamState], clock: UInt64)>(([:], 0))

    init(depth: Int) {
        self.depth = max(0, depth)
    }

    deinit {
        state.withLock { state in
            for stream in state.streams.values { stream.ahead.values.forEach { $0.cancel() } }
        }
    }

    /// Page `page` of `stream`: from a fetch started ahead when there is one that succeeded,
    /// else from `fetch`; and, when the list is being read in order, starts the fetches of
    /// the pages after it.
    func page<Item: Sendable>(
        _ page: Int, of stream: Stream,
        fetch: @escaping @Sendable (Int) async throws(CatFactsError) -> Page<Item>
    ) async throws(CatFactsError) -> Page<Item> {
        guard depth > 0 else { return try await fetch(page) }
        if let fetched = take(page, of: stream) {
            // The caller's cancellation (an interrupt) cancels the fetch it waits for.
            let value = await withTaskCancellationHandler { await fetched.value } onCancel: { fetched.cancel() }
            if case .success(let ready)? = value as? Result<Page<Item>, CatFactsError> {
                schedule(after: ready, of: stream, fetch: fetch)
                return ready
            }
            if Task.isCancelled { throw .cancelled }
        }
        let result = try await fetch(page)
        schedule(after: result, of: stream, fetch: fetch)
        return result
    }

    /// The fetch started ahead for `page`, removed from the table; notes that `page` was asked.
    private func take(_ page: Int, of stream: Stream) -> Pending? {
        state.withLock { state in
            guard var current = state.streams[stream] else {
                state.clock &+= 1
                var new = StreamState(lastAsked: 0, lastPage: page, used: state.clock)
                new.asked.insert(page)
                state.streams[stream] = new
                return nil
            }
            let taken = current.ahead.removeValue(forKey: page)
            current.asked.insert(page)
            if current.asked.count > 256 { current.asked = current.asked.filter { $0 > page - 128 } }
            // Pages fetched ahead are kept until asked, even across a jump (callers asking
            // several pages at once arrive out of order); past a few windows' worth, those
            // farthest from this page are forgotten (not cancelled: they end soon, and their
            // pages land in the cache).
            if current.ahead.count > 4 * depth {
                let farthest = current.ahead.keys.sorted { abs($0 - page) > abs($1 - page) }
                for key in farthest.prefix(current.ahead.count - 4 * depth) { current.ahead[key] = nil }
            }
            state.streams[stream] = current
            return taken
        }
    }

    /// After `page` was answered: when it follows the last page asked, starts fetching the
    /// next `depth` pages not on their way yet, up to the list's last page. They share the
    /// deadline of the call that started them, if it has one (the pages of a walk stop with it).
    private func schedule<Item: Sendable>(after page: Page<Item>, of stream: Stream,
                                          fetch: @escaping @Sendable (Int) async throws(CatFactsError) -> Page<Item>) {
        let deadline = CallDeadline.current
        state.withLock { state in
            state.clock &+= 1
            var current = state.streams[stream] ?? StreamState(lastAsked: 0, lastPage: page.lastPage, used: state.clock)
            // Subtracting, never adding: a caller may ask for page Int.max, and twice.
            let inOrder = page.number > 1 && page.number - 1 == current.lastAsked
            current.lastAsked = page.number
            current.lastPage = page.lastPage
            current.used = state.clock
            if inOrder {
                if page.number < page.lastPage {
                    let last = page.number + min(depth, page.lastPage - page.number)
                    for next in (page.number + 1)...last where current.ahead[next] == nil && !current.asked.contains(next) {
                        current.ahead[next] = Task.detached {
                            await CallDeadline.$current.withValue(deadline) {
                                do throws(CatFactsError) {
                                    return Result<Page<Item>, CatFactsError>.success(try await fetch(next))
                                } catch {
                                    return Result<Page<Item>, CatFactsError>.failure(error)
                                }
                            }
                        }
                    }
                }
            }
            state.streams[stream] = current
            // Follow a few lists at once; forget the least recently used.
            if state.streams.count > Self.maxStreams,
               let oldest = state.streams.min(by: { $0.value.used < $1.value.used })?.key {
                state.streams.removeValue(forKey: oldest)
            }
        }
    }
}
