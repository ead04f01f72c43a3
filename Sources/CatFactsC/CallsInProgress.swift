import CatFactsKit
import Synchronization

/// The blocking calls a C host has in progress on one client, so that `cf_client_interrupt`
/// can cancel them all, as `sqlite3_interrupt` does for a database connection. Each client
/// handle owns one (``ClientHandle/calls``), and so do the lists opened on it: a list's wait
/// is one of its client's calls.
///
/// Interrupting comes in two halves, because a signal handler may call it: ``interrupt()``
/// only sets an atomic flag and writes one byte to a pipe (both async-signal-safe); the
/// process's one ``InterruptWatcher`` thread wakes on that byte and cancels the tasks of
/// every client whose flag is set. A call that starts between the two halves is cancelled
/// too.
final class CallsInProgress: Sendable {
    private let cancels = Locked<[UInt64: @Sendable () -> Void]>([:])
    private let nextToken = Atomic<UInt64>(0)
    private let requested = Atomic<Bool>(false)
    /// Whether the watcher knows these calls: only once a blocking call was made, so a C host
    /// that opens a client and makes no blocking call starts no watcher thread. (A Swift
    /// program's client, or the shell's, has none of this: it lives in the C face.)
    private let watched = Atomic<Bool>(false)

    /// No calls, and no watcher thread until the first.
    init() {}

    /// Records a call in progress, cancelled by `cancel`; the token for ``remove(_:)``.
    func add(_ cancel: @escaping @Sendable () -> Void) -> UInt64 {
        if !watched.load(ordering: .acquiring),
           watched.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            // An interrupt before the first call had nothing to cancel: it must not cancel this one.
            requested.store(false, ordering: .releasing)
            InterruptWatcher.shared.register(self)
        }
        let token = nextToken.add(1, ordering: .relaxed).newValue
        cancels.withLock { $0[token] = cancel }
        return token
    }

    /// The call of `token` is over.
    func remove(_ token: UInt64) {
        _ = cancels.withLock { $0.removeValue(forKey: token) }
    }

    /// Asks for every call in progress to be cancelled. Async-signal-safe: an atomic store and
    /// a `write(2)`; no lock, no allocation.
    func interrupt() {
        requested.store(true, ordering: .releasing)
        InterruptWatcher.shared.wake()
    }

    /// Cancels every call in progress if an interrupt was asked for (on the watcher's thread).
    func cancelIfRequested() {
        guard requested.exchange(false, ordering: .acquiringAndReleasing) else { return }
        for cancel in cancels.withLock({ Array($0.values) }) { cancel() }
    }
}
