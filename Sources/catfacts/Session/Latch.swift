import CatFactsKit

/// A flag that, once set, stays set; safe to set on one thread and read on another
/// (`quit` asked from a command's task, read by the main thread; a cancelled key wait).
final class Latch: Sendable {
    private let value = Locked(false)

    init() {}

    func set() { value.withLock { $0 = true } }

    var isSet: Bool { value.withLock { $0 } }
}
