import Dispatch
import Synchronization

/// Waits on a thread of the caller's own (a C program's thread, a command-line tool's main
/// thread) for async work that runs on the concurrency pool. The waiting thread is not a
/// pool thread, so the pool keeps all its threads for the work. Never call it from a pool
/// thread (a task, or a listener the library calls): it could wait for itself.
public enum Blocking {
    /// Runs `body` as a detached task and returns its value once it is done.
    public static func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Value?>(nil)
        Task.detached {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        // The task stored its value before signalling.
        guard let value = result.withLock({ $0.take() }) else { fatalError("Blocking.run: the task ended without a value") }
        return value
    }
}
