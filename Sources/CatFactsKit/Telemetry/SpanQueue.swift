/// The finished spans waiting to be exported, at most `capacity` of them: past it the oldest
/// are dropped and counted. A batch being sent stays in the queue until the collector took
/// it, so it counts against the bound too and `dropped` is exact whatever the exporter is
/// doing: with nothing delivered, spans finished minus `capacity`. Each span belongs to the
/// client that made it (`owner`), whose own queued, dropped and delivered counts are kept too.
struct SpanQueue {
    let capacity: Int
    private var spans: [(number: Int, owner: Int, span: SpanRecord)] = []
    private var nextNumber = 0
    /// Spans discarded past the bound, since the queue began.
    private(set) var dropped = 0
    /// Per owner: spans waiting, and spans discarded past the bound.
    private var queuedBy: [Int: Int] = [:]
    private var droppedBy: [Int: Int] = [:]
    /// Owners gone while spans of theirs still waited: their drops are no longer counted,
    /// and each leaves the set with its last span (so nothing is kept per owner for ever).
    private var gone: Set<Int> = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { spans.count }

    /// The spans of `owner` waiting.
    func queued(by owner: Int) -> Int { queuedBy[owner] ?? 0 }

    /// The spans of `owner` discarded past the bound.
    func dropped(by owner: Int) -> Int { droppedBy[owner] ?? 0 }

    /// Forgets `owner` (a client gone): its drop count now, its queued count with its last
    /// span queued; its spans still queued stay counted in ``count`` and ``dropped``.
    mutating func forget(_ owner: Int) {
        droppedBy[owner] = nil
        if queuedBy[owner] != nil { gone.insert(owner) }
    }

    /// The owners the queue keeps a count of (a bound the tests check: clients come and go).
    var ownersTracked: Set<Int> { Set(queuedBy.keys).union(droppedBy.keys).union(gone) }

    /// Adds `new` (oldest first) of `owner`, dropping the oldest past the bound.
    mutating func append(_ new: [SpanRecord], owner: Int = 0) {
        for span in new {
            spans.append((nextNumber, owner, span))
            nextNumber += 1
        }
        queuedBy[owner, default: 0] += new.count
        let over = spans.count - capacity
        if over > 0 {
            for entry in spans.prefix(over) {
                if !gone.contains(entry.owner) { droppedBy[entry.owner, default: 0] += 1 }
                lower(entry.owner)
            }
            spans.removeFirst(over)
            dropped += over
        }
    }

    /// The oldest `limit` spans, left in the queue, and the number of the last one (for
    /// ``remove(through:)`` once they are delivered).
    func peek(_ limit: Int) -> (spans: [SpanRecord], last: Int)? {
        guard let last = spans.prefix(limit).last else { return nil }
        return (spans.prefix(limit).map(\.span), last.number)
    }

    /// Removes the spans up to number `last`, delivered (those the bound already dropped are
    /// gone); how many of each owner's went.
    @discardableResult
    mutating func remove(through last: Int) -> [Int: Int] {
        var delivered: [Int: Int] = [:]
        let end = spans.firstIndex { $0.number > last } ?? spans.count
        for entry in spans[..<end] {
            delivered[entry.owner, default: 0] += 1
            lower(entry.owner)
        }
        spans.removeFirst(end)
        return delivered
    }

    private mutating func lower(_ owner: Int) {
        let left = (queuedBy[owner] ?? 1) - 1
        queuedBy[owner] = left > 0 ? left : nil
        if left <= 0 { gone.remove(owner) }
    }
}
