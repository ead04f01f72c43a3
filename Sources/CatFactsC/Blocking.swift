import CatFactsKit
import Dispatch
import Synchronization

/// Runs `body` on the Swift concurrency pool and blocks the calling C thread until it is
/// done. The caller's thread is not a pool thread (C calls come from the program's own
/// threads), so the pool keeps all its threads for the work; a listener, which runs on a
/// pool thread, must not call this (the header says so).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<T?>(nil)
    Task.detached {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    // The task stored a value before signalling.
    guard let value = result.withLock({ $0.take() }) else { fatalError("blocking: the task ended without a result") }
    return value
}

/// `blocking` for a throwing call: its value, or its error.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws(CatFactsError) -> T) -> Result<T, CatFactsError> {
    blocking { () async -> Result<T, CatFactsError> in
        do throws(CatFactsError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
