import CatFactsKit
import Dispatch

/// Waits on a C caller's thread for async work that runs on the concurrency pool. The waiting
/// thread is not a pool thread, so the pool keeps all its threads for the work. Never call it
/// from a pool thread (a task, or a listener the library calls): it could wait for itself.
enum Blocking {
    /// Runs `body` as a detached task and returns its value once it is done; the task is
    /// recorded in `calls` while it runs, so that an interrupt of its client cancels it
    /// (`cf_client_interrupt`).
    ///
    /// With `startingHere`, the task starts on the calling thread (`Task.immediateDetached`,
    /// the thread marked by `CallerThread`) and moves to the pool at its first suspension: an
    /// answer that is ready (a cached page, a page read ahead) comes back without waking
    /// another thread and waiting to be woken. Code that may run there must call no listener
    /// (they run on library threads, as the header says): it calls `CallerThread.leave()`
    /// first, as the core's requests do.
    static func run<Value: Sendable>(cancellableBy calls: CallsInProgress, startingHere: Bool = false,
                                     _ body: @escaping @Sendable () async -> Value) -> Value {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Value?>(nil)
        // Recorded before the task starts: an interrupt while it runs on this thread is kept,
        // and cancels the task as soon as there is one.
        let relay = CancelRelay()
        let token = calls.add { relay.cancel() }
        let work = { @Sendable () async -> Void in
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        if startingHere {
            relay.attach(CallerThread.marking { Task.immediateDetached(operation: work) })
        } else {
            relay.attach(Task.detached(operation: work))
        }
        done.wait()
        calls.remove(token)
        // The task stored its value before signalling.
        guard let value = result.withLock({ $0.take() }) else { fatalError("Blocking.run: the task ended without a value") }
        return value
    }
}
