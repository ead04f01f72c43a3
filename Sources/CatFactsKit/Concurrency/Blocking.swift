import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits on a thread of the caller's own (a C program's thread, a command-line tool's main
/// thread) for async work that runs on the concurrency pool. The waiting thread is not a
/// pool thread, so the pool keeps all its threads for the work. Never call it from a pool
/// thread (a task, or a listener the library calls): it could wait for itself.
package enum Blocking {
    /// Runs `body` as a detached task and returns its value once it is done.
    package static func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
        run(cancellableBy: nil, body)
    }

    /// The same, the task recorded in `calls` while it runs, so that an interrupt of its
    /// client cancels it (`cf_client_interrupt`).
    ///
    /// With `startingHere`, the task starts on the calling thread (`Task.immediateDetached`)
    /// and moves to the pool at its first suspension: an answer that is ready (a cached
    /// page, a page read ahead) comes back without waking another thread and waiting to be
    /// woken. Code that may run there must call no listener (they run on library threads,
    /// as the header says): it calls ``leaveCallerThread()`` first, as requests do.
    package static func run<Value: Sendable>(cancellableBy calls: CallsInProgress?, startingHere: Bool = false,
                                             _ body: @escaping @Sendable () async -> Value) -> Value {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Value?>(nil)
        // Recorded before the task starts: an interrupt while it runs on this thread is kept,
        // and cancels the task as soon as there is one.
        let relay = CancelRelay()
        let token = calls?.add { relay.cancel() }
        let work = { @Sendable () async -> Void in
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        if startingHere {
            CallerThread.enter()
            let task = Task.immediateDetached(operation: work)
            CallerThread.leave()
            relay.attach(task)
        } else {
            relay.attach(Task.detached(operation: work))
        }
        done.wait()
        if let token { calls?.remove(token) }
        // The task stored its value before signalling.
        guard let value = result.withLock({ $0.take() }) else { fatalError("Blocking.run: the task ended without a value") }
        return value
    }

    /// Whether the current thread is a caller's, running the start of a call (see
    /// ``run(cancellableBy:startingHere:_:)``).
    package static var onCallerThread: Bool { CallerThread.isInside }

    /// Moves the current task off a caller's thread, onto the pool; does nothing elsewhere.
    ///
    /// A yield alone is not enough: it queues the task's continuation before the task has
    /// finished suspending, and a pool thread that resumes it that fast lets the task go on
    /// where it was, on the caller's thread (seen in `thread_test`: 1 to 3 metrics events in
    /// 3200). So it yields until the task runs somewhere else.
    package static func leaveCallerThread() async {
        while CallerThread.isInside { await Task.yield() }
    }
}

/// Marks the threads running the start of a call begun with `startingHere`.
private enum CallerThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { fatalError("pthread_key_create failed") }
        return key
    }()

    static func enter() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1)) }
    static func leave() { pthread_setspecific(key, nil) }
    static var isInside: Bool { pthread_getspecific(key) != nil }
}

/// A cancellation that may come before the task it cancels exists: kept, and passed on when
/// the task is attached.
private final class CancelRelay: Sendable {
    private let state = Locked<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }

    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }
}
