import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The blocking calls a host has in progress on one client, so that `cf_client_interrupt`
/// can cancel them all, as `sqlite3_interrupt` does for a database connection.
///
/// Interrupting comes in two halves, because a signal handler may call it: ``interrupt()``
/// only sets an atomic flag and writes one byte to a pipe (both async-signal-safe); the
/// process's one ``InterruptWatcher`` thread wakes on that byte and cancels the tasks of
/// every client whose flag is set. A call that starts between the two halves is cancelled
/// too.
package final class CallsInProgress: Sendable {
    private let cancels = Locked<[UInt64: @Sendable () -> Void]>([:])
    private let nextToken = Atomic<UInt64>(0)
    private let requested = Atomic<Bool>(false)

    package init() {
        InterruptWatcher.shared.register(self)
    }

    /// Records a call in progress, cancelled by `cancel`; the token for ``remove(_:)``.
    package func add(_ cancel: @escaping @Sendable () -> Void) -> UInt64 {
        let token = nextToken.add(1, ordering: .relaxed).newValue
        cancels.withLock { $0[token] = cancel }
        return token
    }

    /// The call of `token` is over.
    package func remove(_ token: UInt64) {
        _ = cancels.withLock { $0.removeValue(forKey: token) }
    }

    /// Asks for every call in progress to be cancelled. Async-signal-safe: an atomic store and
    /// a `write(2)`; no lock, no allocation.
    package func interrupt() {
        requested.store(true, ordering: .releasing)
        InterruptWatcher.shared.wake()
    }

    /// Cancels every call in progress if an interrupt was asked for (on the watcher's thread).
    func cancelIfRequested() {
        guard requested.exchange(false, ordering: .acquiringAndReleasing) else { return }
        for cancel in cancels.withLock({ Array($0.values) }) { cancel() }
    }
}

/// The thread that does the cancelling half of ``CallsInProgress/interrupt()``: it sleeps in
/// `read(2)` on a pipe and, woken by a byte, looks at every live client's calls.
final class InterruptWatcher: Sendable {
    static let shared = InterruptWatcher()

    /// A registered client's calls, held weakly: a client that goes away leaves its entry
    /// empty. `@unchecked Sendable`: `calls` is written at init only, read under `clients`' lock.
    private final class Entry: @unchecked Sendable {
        weak var calls: CallsInProgress?
        init(_ calls: CallsInProgress) { self.calls = calls }
    }

    private let clients = Locked<[Entry]>([])
    private let readEnd: Int32
    private let writeEnd: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            // A full pipe must never block the signal handler: the bytes only wake the thread.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        guard readEnd >= 0 else { return }
        DetachedThread.start(stackSize: 256 << 10) { [self] in run() }
    }

    func register(_ calls: CallsInProgress) {
        clients.withLock { clients in
            clients.removeAll { $0.calls == nil }
            clients.append(Entry(calls))
        }
    }

    /// Async-signal-safe: one `write(2)`.
    func wake() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let live = clients.withLock { $0.compactMap(\.calls) }
            for calls in live { calls.cancelIfRequested() }
        }
    }
}
