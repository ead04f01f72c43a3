import CatFactsKit

/// Counts terminal resizes, so a view redrawing in place (`metrics --watch`, `scroll`)
/// re-fits at once rather than at its next tick.
enum ResizeSignal {
    private static let generation = Locked(0)

    /// Bumps the count (the main thread does, on SIGWINCH).
    static func note() { generation.withLock { $0 += 1 } }

    /// The number of resizes so far.
    static var current: Int { generation.withLock { $0 } }
}
