#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps `fork()` out of SQLite: every call the library makes into SQLite holds this gate,
/// shared (``around(_:)``, through ``SQLiteConnection``), and the process's fork handler
/// (``ProcessFork``) takes it whole, so `fork()` waits for the calls in flight and none starts
/// until it returns.
///
/// Why: SQLite takes process-wide mutexes of its own in every connection, whatever its
/// threading mode (the memory statistics' at each allocation, the page cache's at each page
/// read). A thread inside SQLite when another forks leaves one locked in the child, and the
/// child's first call into SQLite (a new client's cache, opened at once) waits for it forever:
/// 6 of 60 children of a parent whose threads were saving pages did.
///
/// A shared hold is re-entrant on its thread (a depth in a thread-local), since the fork
/// handler's writer is preferred: a second read lock taken while it waits would never be
/// granted. A call that waits for another process's lock on a cache file (the busy timeout)
/// holds `fork()` back as long.
package enum SQLiteForkGate {
    /// The read-write lock, at a fixed heap address as pthreads requires. `@unchecked
    /// Sendable`: the lock is the synchronisation.
    private final class ReadWriteLock: @unchecked Sendable {
        let pointer = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

        init() {
            pointer.initialize(to: pthread_rwlock_t())
            reset()
        }

        /// Makes it new and free: at the start, and in a child of `fork()`, where the lock
        /// taken by the forking thread cannot be released (glibc knows its writer by the
        /// kernel's thread id, which the child's thread does not share).
        func reset() {
            var attributes = pthread_rwlockattr_t()
            pthread_rwlockattr_init(&attributes)
            #if os(Linux)
            // A writer waiting is served before new readers: a busy cache never starves fork().
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
            #endif
            pthread_rwlock_init(pointer, &attributes)
            pthread_rwlockattr_destroy(&attributes)
        }
    }

    private static let lock: ReadWriteLock = {
        let lock = ReadWriteLock()
        ProcessFork.register(.init(prepare: { pthread_rwlock_wrlock(lock.pointer) },
                                   parent: { pthread_rwlock_unlock(lock.pointer) },
                                   child: { lock.reset() }))
        return lock
    }()

    /// How many ``around(_:)`` the current thread is inside.
    private static let depth: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { fatalError("pthread_key_create failed") }
        return key
    }()

    /// Runs `body`, which calls into SQLite, with the gate held (shared): no `fork()` meanwhile.
    package static func around<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let outer = Int(bitPattern: pthread_getspecific(depth))
        if outer == 0 { pthread_rwlock_rdlock(lock.pointer) }
        pthread_setspecific(depth, UnsafeRawPointer(bitPattern: outer + 1))
        defer {
            pthread_setspecific(depth, UnsafeRawPointer(bitPattern: outer))
            if outer == 0 { pthread_rwlock_unlock(lock.pointer) }
        }
        return try body()
    }
}
