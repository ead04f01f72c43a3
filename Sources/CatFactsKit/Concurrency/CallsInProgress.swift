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
    /// Whether the watcher knows these calls: only once a blocking call was made, so a client
    /// that never makes one (a Swift program's, the shell's) starts no watcher thread.
    private let watched = Atomic<Bool>(false)

    package init() {}

    /// Records a call in progress, cancelled by `cancel`; the token for ``remove(_:)``.
    package func add(_ cancel: @escaping @Sendable () -> Void) -> UInt64 {
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
///
/// A child of `fork()` has the pipe but not the thread (and shares the pipe with its parent,
/// whose thread would take the child's bytes): the first client registered in the child makes
/// a new pipe and a new thread (``ProcessFork/generation`` says when).
final class InterruptWatcher: Sendable {
    static let shared = InterruptWatcher()

    /// A registered client's calls, held weakly: a client that goes away leaves its entry
    /// empty. `@unchecked Sendable`: `calls` is written at init only, read under `clients`' lock.
    private final class Entry: @unchecked Sendable {
        weak var calls: CallsInProgress?
        init(_ calls: CallsInProgress) { self.calls = calls }
    }

    private struct State {
        var clients: [Entry] = []
        /// The process (fork generation) the thread runs in; -1: none yet.
        var generation = -1
        /// The read end of the thread's pipe (its copy, in a child of fork()).
        var readEnd: Int32 = -1
    }

    private let state = Locked(State())
    /// Read by ``wake()`` with no lock (signal handlers); -1 until the first thread starts.
    private let writeEnd = Atomic<Int32>(-1)

    private init() {
        // The lock is held across fork(), so a child never finds the list half-changed.
        ProcessFork.register(.init(prepare: { [state] in state.lockForFork() },
                                   parent: { [state] in state.unlockAfterFork() },
                                   child: { [state] in state.unlockAfterFork() }))
    }

    func register(_ calls: CallsInProgress) {
        state.withLock { state in
            if state.generation != ProcessFork.generation, let readEnd = start() {
                if ProcessFork.generation > 0 { ProcessFork.useOwnExecutor() }
                // The parent's pipe, in a child: its copies are closed here (the parent keeps
                // its own, and its thread).
                if state.readEnd >= 0 { close(state.readEnd) }
                state.readEnd = readEnd
                state.generation = ProcessFork.generation
            }
            state.clients.removeAll { $0.calls == nil }
            state.clients.append(Entry(calls))
        }
    }

    /// A new pipe and thread (the lock held), and the pipe's read end; `nil` when the system
    /// refused either (an interrupt then does nothing, and the next client tries again).
    private func start() -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        // A full pipe must never block the signal handler: the bytes only wake the thread.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let readEnd = ends[0]
        guard DetachedThread.start(stackSize: 256 << 10, { [self] in run(readEnd) }) == 0 else {
            close(ends[0])
            close(ends[1])
            return nil
        }
        let old = writeEnd.exchange(ends[1], ordering: .acquiringAndReleasing)
        if old >= 0 { close(old) }
        return readEnd
    }

    /// Async-signal-safe: one `write(2)`.
    func wake() {
        let end = writeEnd.load(ordering: .acquiring)
        guard end >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(end, &byte, 1)
    }

    private func run(_ readEnd: Int32) {
        #if os(Linux)
        // Named, so that a host sees which of its threads is ours (top -H, /proc/PID/task).
        // Through /proc: pthread_setname_np is a GNU extension Swift's Glibc does not import.
        let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if comm >= 0 {
            _ = "cf-interrupt".withCString { write(comm, $0, strlen($0)) }
            close(comm)
        }
        #endif
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let live = state.withLock { $0.clients.compactMap(\.calls) }
            for calls in live { calls.cancelIfRequested() }
        }
    }
}
