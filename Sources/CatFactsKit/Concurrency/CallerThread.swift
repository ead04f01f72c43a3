#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Marks the thread of a caller of the library's own (a C program's thread, waiting in a
/// blocking call of the C face) while a task starts there, so that the core's request path
/// knows to move that task to the pool before it calls any listener: listeners run on
/// library threads, never on a caller's (the header says so).
///
/// The C face starts a blocking call's task on its caller's thread (`Task.immediateDetached`
/// inside ``marking(_:)``), so that an answer that is ready (a cached page, a page read ahead)
/// comes back with no thread switch; a request calls ``leave()`` first. A Swift client never
/// marks a thread: for it ``leave()`` is a check of a thread-local and nothing more.
package enum CallerThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { fatalError("pthread_key_create failed") }
        return key
    }()

    /// Runs `body` with the current thread marked as a caller's; unmarked again when it returns.
    package static func marking<T>(_ body: () throws -> T) rethrows -> T {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, nil) }
        return try body()
    }

    /// Whether the current thread is a caller's, running the start of a call (inside
    /// ``marking(_:)``).
    package static var isCurrent: Bool { pthread_getspecific(key) != nil }

    /// Moves the current task off a caller's thread, onto the pool; does nothing elsewhere.
    ///
    /// A yield alone is not enough: it queues the task's continuation before the task has
    /// finished suspending, and a pool thread that resumes it that fast lets the task go on
    /// where it was, on the caller's thread (seen in `thread_test`: 1 to 3 metrics events in
    /// 3200). So it yields until the task runs somewhere else.
    package static func leave() async {
        while isCurrent { await Task.yield() }
    }
}
