#if os(Linux)
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import Glibc

/// The concurrency runtime's default executor in a child of `fork()`: jobs (tasks, their
/// continuations, `Task.sleep`'s wake-ups) run on threads of the library's own, started as
/// work comes, at most `max(4, CPUs)`.
///
/// Why: on Linux the runtime's default executor is libdispatch's global queues, and a child
/// inherits their books but not their threads. libdispatch counts the parent's idle workers
/// (they wait some seconds for work before they end) as alive in the child, so a queue whose
/// threads were all in use in the parent never starts one again: every job waits forever, and
/// so does every call (issue 36). ``ProcessFork/useOwnExecutor()`` installs this one instead,
/// in the child's first client.
final class ForkChildExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    // @unchecked: `queue`, `threads` and `idle` are only touched with `condition` locked.

    private struct Entry {
        let job: UnownedJob
        /// CLOCK_MONOTONIC nanoseconds; 0: now.
        let due: UInt64
    }

    private let condition = Condition()
    private var queue: [Entry] = []
    private var threads = 0
    private var idle = 0
    private let limit = max(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    func enqueue(_ job: consuming ExecutorJob) {
        add(UnownedJob(job), due: 0)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        add(UnownedJob(job), due: Self.now() + Self.nanoseconds(delay))
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        add(UnownedJob(job), due: Self.now() + Self.nanoseconds(clock.now.duration(to: instant)))
    }

    private func add(_ job: UnownedJob, due: UInt64) {
        condition.lock()
        // Sorted by due time, first come first among equals.
        let place = queue.firstIndex { $0.due > due } ?? queue.endIndex
        queue.insert(Entry(job: job, due: due), at: place)
        let start = idle == 0 && threads < limit
        if start { threads += 1 }
        condition.broadcast()
        condition.unlock()
        if start, DetachedThread.start(stackSize: 1 << 20, { [self] in work() }) != 0 {
            condition.lock()
            threads -= 1
            condition.unlock()
        }
    }

    private func work() {
        condition.lock()
        while true {
            if let first = queue.first, first.due <= Self.now() {
                queue.removeFirst()
                condition.unlock()
                first.job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
                continue
            }
            idle += 1
            if let first = queue.first {
                condition.wait(untilMonotonic: first.due)
            } else {
                condition.wait()
            }
            idle -= 1
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// A clock's duration in nanoseconds (0 for a negative one, or a clock whose durations
    /// are not `Duration`: the job then runs at once, as a timer that fired early).
    private static func nanoseconds<D>(_ delay: D) -> UInt64 {
        guard let duration = delay as? Duration, duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}

/// What ``ProcessFork/useOwnExecutor()`` hands the runtime: the main executor as it was, and a
/// new ``ForkChildExecutor``.
enum ForkChildExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { MainActor.executor }
    static var defaultExecutor: any TaskExecutor { ForkChildExecutor() }
}
#endif
