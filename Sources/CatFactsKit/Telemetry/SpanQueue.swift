/// The finished spans waiting to be exported, at most `capacity` of them: past it the oldest
/// are dropped and counted. A batch being sent stays in the queue until the collector took
/// it, so it counts against the bound too and `dropped` is exact whatever the exporter is
/// doing: with nothing delivered, spans finished minus `capacity`. Each span belongs to the
/// client that made it (`owner`), whose own queued, dropped and delivered counts are kept too.
struct SpanQueue {
    let capacity: Int
    /// The spans, oldest first, from ``head`` on: those before it have left (dropped or
    /// delivered) and are cleared away in bulk (``advance(by:)``), so that a span leaving the
    /// front costs no shift of the thousands behind it (a full queue drops on every call).
    private var spans: [(number: Int, owner: Int, span: SpanRecord)] = []
    private var head = 0
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

    var count: Int { spans.count - head }

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
        let over = count - capacity
        if over > 0 {
            for entry in spans[head..<head + over] {
                if !gone.contains(entry.owner) { droppedBy[entry.owner, default: 0] += 1 }
                lower(entry.owner)
            }
            advance(by: over)
            dropped += over
        }
    }

    /// The oldest `limit` spans, left in the queue, and the number of the last one (for
    /// ``remove(through:)`` once they are delivered).
    func peek(_ limit: Int) -> (spans: [SpanRecord], last: Int)? {
        let oldest = spans[head...].prefix(limit)
        guard let last = oldest.last else { return nil }
        return (oldest.map(\.span), last.number)
    }

    /// Removes the spans up to number `last`, delivered (those the bound already dropped are
    /// gone); how many of each owner's went.
    @discardableResult
    mutating func remove(through last: Int) -> [Int: Int] {
        var delivered: [Int: Int] = [:]
        let end = spans[head...].firstIndex { $0.number > last } ?? spans.count
        for entry in spans[head..<end] {
            delivered[entry.owner, default: 0] += 1
            lower(entry.owner)
        }
        advance(by: end - head)
        return delivered
    }

    /// The oldest `gone` spans have left. They are cleared once they are as many as the spans
    /// still queued: each span is moved at most once on average, whatever the traffic.
    private mutating func advance(by gone: Int) {
        head += gone
        if head == spans.count {
            spans.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= spans.count {
            spans.removeFirst(head)
            head = 0
        }
    }

    private mutating func lower(_ owner: Int) {
        let left = (queuedBy[owner] ?? 1) - 1
        queuedBy[owner] = left > 0 ? left : nil
        if left <= 0 { gone.remove(owner) }
    }
}
