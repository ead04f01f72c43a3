import CatFactsKit

/// A cancellation that may come before the task it cancels exists: kept, and passed on when
/// the task is attached. ``Blocking/run(cancellableBy:startingHere:_:)`` records a call before
/// its task starts (on the caller's thread, where an interrupt may already come).
final class CancelRelay: Sendable {
    private let state = Locked<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    /// Cancels the task, now if it is attached, else as soon as it is.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }

    /// The task to cancel; cancelled at once if ``cancel()`` came first.
    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }
}
