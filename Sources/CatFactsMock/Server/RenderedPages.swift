import CatFactsKit

/// A route's reply with its strong `ETag` (for a 200), made once and served as often as asked.
struct RenderedReply: Sendable {
    let reply: MockReply
    /// `FNV1a.etag` of the body for a 200; `nil` for other statuses, which carry none.
    let etag: String?

    init(_ reply: MockReply) {
        self.reply = reply
        etag = reply.status == .ok ? FNV1a.etag(reply.body) : nil
    }
}

/// The `/breeds` and `/facts` pages already rendered, so that a page asked again (a
/// benchmark's next sweep) costs a lookup, not a render and a hash: a page is a function of
/// the request alone (path, query, and the origin its page URLs start with).
///
/// Bounded by body bytes and by pages; past either, the oldest pages go first. Faults act on
/// the reply after it comes from here, so they still act on every response.
final class RenderedPages: Sendable {
    /// Everything a page's bytes depend on.
    struct Key: Hashable, Sendable {
        var path: String
        /// The raw query, as sent: two spellings of one page are two entries, never a wrong page.
        var query: String
        var origin: String
    }

    private struct State {
        var pages: [Key: RenderedReply] = [:]
        /// Keys oldest first; `first` is where the live ones start (the ones before are gone).
        var order: [Key] = []
        var first = 0
        var bytes = 0
    }

    private let state = Locked(State())
    private let maxBytes: Int
    private let maxEntries: Int

    init(maxBytes: Int, maxEntries: Int) {
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
    }

    /// Pages kept now, and their body bytes.
    var count: (pages: Int, bytes: Int) {
        state.withLock { ($0.pages.count, $0.bytes) }
    }

    /// The page for `key`: kept, or made by `render` and kept when it is a 200 that fits.
    /// Two requests for a page not yet kept may both render it; the bytes are the same.
    func reply(for key: Key, render: () -> MockReply) -> RenderedReply {
        if let kept = state.withLock({ $0.pages[key] }) { return kept }
        let made = RenderedReply(render())
        let size = made.reply.body.count
        guard made.reply.status == .ok, size <= maxBytes, maxEntries > 0 else { return made }
        state.withLock { state in
            guard state.pages.updateValue(made, forKey: key) == nil else { return }
            state.order.append(key)
            state.bytes += size
            while state.bytes > maxBytes || state.pages.count > maxEntries {
                let oldest = state.order[state.first]
                state.first += 1
                state.bytes -= state.pages.removeValue(forKey: oldest)?.reply.body.count ?? 0
            }
            // Drop the keys already evicted once they are half the array, so it stays
            // within twice the pages kept.
            if state.first > state.order.count / 2 {
                state.order.removeFirst(state.first)
                state.first = 0
            }
        }
        return made
    }
}
