import Dispatch
import Synchronization

/// Waits on the main thread for async work that is not a command: starting and stopping
/// the in-process mock. The main thread is not a pool thread, so blocking it costs the
/// work nothing.
enum Blocking {
    /// Runs `body` as a task and returns its value or throws its error.
    static func wait<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        let done = DispatchSemaphore(value: 0)
        let box = Box<Value>()
        Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            box.result.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = box.result.withLock({ $0 }) else { throw CancellationError() }
        return try result.get()
    }

    private final class Box<Value: Sendable>: Sendable {
        let result = Mutex<Result<Value, any Error>?>(nil)
    }
}
