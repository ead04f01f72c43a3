import CatFactsKit
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread that does the cancelling half of ``CallsInProgress/interrupt()``: it sleeps in
/// `read(2)` on a pipe and, woken by a byte, looks at every live client's calls.
///
/// A child of `fork()` has the pipe but not the thread (and shares the pipe with its parent,
/// whose thread would take the child's bytes): the first client registered in the child makes
/// a new pipe and a new thread (``ProcessFork/generation`` says when).
final class InterruptWatcher: Sendable {
    /// The process's one watcher; its thread starts with the first ``register(_:)``.
    static let shared = InterruptWatcher()

    /// A registered client's calls, held weakly: once its handle and every list opened on it
    /// are closed, the entry is empty. `@unchecked Sendable`: `calls` is written at init only, read under `clients`' lock.
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

    /// Watches `calls` (held weakly) from now on; starts the thread, and a new pipe, when
    /// there is none in this process yet (the first blocking call, or the first in a child of
    /// `fork()`, which also gets the library's own executor there).
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

    /// Wakes the thread, if one started. Async-signal-safe: one `write(2)`.
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
