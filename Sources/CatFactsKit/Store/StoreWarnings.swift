/// What went wrong with the cache without failing a call (a corrupt file moved aside, a
/// write that failed, pages evicted for the size cap), oldest first. Bounded: past
/// ``capacity`` the oldest are dropped.
///
/// A fault that happens once (a file moved aside) is one line each time; a fault that can
/// recur on every call (a write on a full disk, an eviction) keeps one line per kind,
/// rewritten with its running count (``summarize(_:as:)``), so it never floods the list.
public final class StoreWarnings: Sendable {
    /// The most warnings kept.
    public static let capacity = 100

    /// A line, and the kind of recurring fault it summarizes (`nil` for a one-off).
    private struct Line { var kind: String?; var text: String }
    private let lines = Locked<[Line]>([])

    public init() {}

    /// Adds a warning.
    public func add(_ warning: String) {
        lines.withLock { Self.append(Line(kind: nil, text: warning), to: &$0) }
    }

    /// Sets the one line of a recurring fault: `warning` replaces the line of `kind`, where
    /// it was first added, or is added as a new line.
    func summarize(_ warning: String, as kind: String) {
        lines.withLock { lines in
            if let index = lines.firstIndex(where: { $0.kind == kind }) {
                lines[index].text = warning
            } else {
                Self.append(Line(kind: kind, text: warning), to: &lines)
            }
        }
    }

    private static func append(_ line: Line, to lines: inout [Line]) {
        lines.append(line)
        if lines.count > capacity { lines.removeFirst(lines.count - capacity) }
    }

    /// Every warning kept, oldest first.
    public var all: [String] { lines.withLock { $0.map(\.text) } }
}
