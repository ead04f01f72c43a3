
/// What went wrong with the cache without failing a call (a corrupt file moved aside, a
/// write that failed), newest last. Bounded: past ``capacity`` the oldest are dropped.
public final class StoreWarnings: Sendable {
    /// The most warnings kept.
    public static let capacity = 100
    private let list = Locked<[String]>([])

    public init() {}

    /// Adds a warning.
    public func add(_ warning: String) {
        list.withLock { list in
            list.append(warning)
            if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
        }
    }

    /// Every warning kept, oldest first.
    public var all: [String] { list.withLock { $0 } }
}
