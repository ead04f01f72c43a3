/// The finished spans waiting to be exported, at most `capacity` of them: past it the oldest
/// are dropped and counted. A batch being sent stays in the queue until the collector took
/// it, so it counts against the bound too and `dropped` is exact whatever the exporter is
/// doing: with nothing delivered, spans finished minus `capacity`.
struct SpanQueue {
    let capacity: Int
    private var spans: [(number: Int, span: SpanRecord)] = []
    private var nextNumber = 0
    /// Spans discarded past the bound, since the queue began.
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { spans.count }

    /// Adds `new` (oldest first), dropping the oldest past the bound.
    mutating func append(_ new: [SpanRecord]) {
        for span in new {
            spans.append((nextNumber, span))
            nextNumber += 1
        }
        let over = spans.count - capacity
        if over > 0 {
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

    /// Removes the spans up to number `last`, delivered (those the bound already dropped are gone).
    mutating func remove(through last: Int) {
        spans.removeAll { $0.number <= last }
    }
}
