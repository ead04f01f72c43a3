/// The library's timed sleeps, all on one clock.
///
/// libdispatch (the Swift concurrency runtime's timers on Linux) opens a timerfd for each
/// clock it is asked to wait on, and keeps it for the life of the process: the header's
/// "The process" counts one. ``PagedList``'s timeouts are dispatch timers on `DispatchTime`,
/// the uptime clock (`CLOCK_MONOTONIC`); `Task.sleep(for:)` waits on the continuous clock
/// (`CLOCK_BOOTTIME`) unless told otherwise, and its first retry delay or probe would open a
/// second timerfd. Every sleep of the library goes through here, on the suspending clock,
/// which is dispatch's uptime clock too.
enum TimedWait {
    /// Sleeps `duration` on the suspending clock; throws `CancellationError` when the task is
    /// cancelled first.
    static func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration, clock: .suspending)
    }
}
