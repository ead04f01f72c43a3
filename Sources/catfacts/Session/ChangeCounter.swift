import CatFactsKit

/// A counter bumped from any thread (a paging listener) and read by a view waiting to
/// redraw: a different value means something changed.
final class ChangeCounter: Sendable {
    private let count = Locked(0)

    init() {}

    func bump() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
