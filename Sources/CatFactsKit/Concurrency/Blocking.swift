import Dispatch

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
    package static func run<Value: Sendable>(cancellableBy calls: CallsInProgress?,
                                             _ body: @escaping @Sendable () async -> Value) -> Value {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Value?>(nil)
        let task = Task.detached {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        let token = calls?.add { task.cancel() }
        done.wait()
        if let token { calls?.remove(token) }
        // The task stored its value before signalling.
        guard let value = result.withLock({ $0.take() }) else { fatalError("Blocking.run: the task ended without a value") }
        return value
    }
}
