@_spi(ExperimentalCustomExecutors) import _Concurrency
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the library does around `fork()` (one `pthread_atfork` registration, made by
/// ``install()``): the parts with a lock a child must find whole register a handler
/// (``register(_:)``), and in the child the Swift concurrency runtime's jobs move to threads
/// of the library's own (``useOwnExecutor()``: libdispatch's pool counts threads the child
/// does not have, and its jobs would never run).
///
/// A part whose thread a child does not inherit (the curl engine, the telemetry exporter)
/// records ``generation`` when it starts it: a different value later means the thread is in
/// another process and a new one must be started.
package enum ProcessFork {
    /// One part's handlers. `prepare` runs in the parent before `fork()` (take the locks the
    /// child must find consistent), `parent` after it there and `child` after it in the child
    /// (release them; in the child, also forget the threads that did not come along).
    package struct Handler: Sendable {
        package let prepare: @Sendable () -> Void
        package let parent: @Sendable () -> Void
        package let child: @Sendable () -> Void

        package init(prepare: @escaping @Sendable () -> Void, parent: @escaping @Sendable () -> Void,
                     child: @escaping @Sendable () -> Void) {
            self.prepare = prepare
            self.parent = parent
            self.child = child
        }
    }

    /// How many `fork()`s stand between this process and the one that loaded the library: 0 in
    /// that one, incremented in each child.
    package static var generation: Int { forks.load(ordering: .acquiring) }

    private static let forks = Atomic<Int>(0)
    private static let handlers = Locked<[Handler]>([])
    /// The handlers as they were at `prepare`: the same list runs `parent` or `child`.
    nonisolated(unsafe) private static var running: [Handler] = []

    /// Registers the `pthread_atfork` handlers, once per process (later calls do nothing).
    package static func install() { _ = installed }

    private static let installed: Void = {
        pthread_atfork({ ProcessFork.prepare() }, { ProcessFork.parent() }, { ProcessFork.child() })
    }()

    /// Gives the concurrency runtime a default executor of the library's own
    /// (``ForkChildExecutor``), in a child of `fork()`, where libdispatch's may never run a
    /// job again. The C face's interrupt watcher calls it at the first blocking call in each
    /// child; a child of that child gets a new one, with threads of its own.
    package static func useOwnExecutor() {
        #if os(Linux)
        _createExecutors(factory: ForkChildExecutorFactory.self)
        #endif
    }

    /// Adds `handler`; it runs at every later `fork()`. Parts register once and stay.
    package static func register(_ handler: Handler) {
        install()
        handlers.withLock { $0.append(handler) }
    }

    // The list's lock is held from prepare to parent/child, so a registration cannot slip in
    // between; each part's prepare runs in reverse order of registration, its parent and child
    // in order (as pthread_atfork orders its own).
    private static func prepare() {
        handlers.lockForFork()
        running = handlers.unsafeValue
        for handler in running.reversed() { handler.prepare() }
    }

    private static func parent() {
        for handler in running { handler.parent() }
        running = []
        handlers.unlockAfterFork()
    }

    private static func child() {
        forks.add(1, ordering: .releasing)
        for handler in running { handler.child() }
        running = []
        handlers.unlockAfterFork()
    }
}
