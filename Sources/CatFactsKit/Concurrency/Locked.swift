#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock: what the standard library's `Mutex` is, on `pthread_mutex_t`, so
/// that ThreadSanitizer sees every acquire and release (`make tsan`). `Mutex` waits on a
/// futex TSan cannot follow, so with it every guarded access looked like a race and TSan
/// could report nothing real. Used for every lock in the project's modules.
///
/// The mutex lives at a fixed heap address, as pthreads requires; the value is reached only
/// inside ``withLock(_:)``. `@unchecked Sendable`: the mutex is the synchronisation, and the
/// value never leaves the lock except as the body's result (as with `Mutex`).
///
/// A closure is kept inside a struct, never as the value itself (`Locked<(() -> T)?>`): the
/// compiler reabstracts such a value through `withLock`'s `inout` on every access (optimized or
/// not) and stores it back wrapped in two more thunks, so each read nests it deeper until a
/// call of it overflows the stack (`MetricsRecorderTests`, `metrics_endpoints_test.c`).
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    @usableFromInline var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held; not re-entrant (a nested call on the same
    /// lock deadlocks, as with `Mutex`).
    @inlinable
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Takes the lock and keeps it, for `pthread_atfork`'s prepare handler (``ProcessFork``):
    /// a child then finds the value whole. ``unlockAfterFork()`` in the parent and the child
    /// lets go; ``unsafeValue`` reads the value in between.
    package func lockForFork() { pthread_mutex_lock(mutex) }
    package func unlockAfterFork() { pthread_mutex_unlock(mutex) }
    /// The value, read with the lock held by ``lockForFork()``.
    package var unsafeValue: Value { value }
}
