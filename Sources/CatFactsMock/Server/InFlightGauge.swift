import CatFactsKit

/// The requests in flight (arrived, their response head not yet made), the most there have
/// been at once, and the ``MockConfiguration/hold`` gate: what lets a test see a client's
/// concurrency without timing it (`GET /_mock/stats`).
///
/// The gate is one-time: requests (after the first ``MockConfiguration/holdAfter``) wait
/// until `hold` are in flight together, then all go on and none is held again. So a client
/// that keeps N connections is seen with exactly N under way at once, whatever the machine's
/// speed; one that keeps fewer leaves its requests waiting until the hold limit opens the
/// gate, and the stats say so.
final class InFlightGauge: Sendable {
    /// What the gate is doing.
    enum HoldState: String {
        /// No hold was asked for.
        case off
        /// Requests wait until enough are in flight.
        case holding
        /// Enough were in flight together; nothing waits any more.
        case released
        /// The hold limit passed first; nothing waits any more.
        case timedOut = "timed out"
    }

    /// The gauge's readings, for `/_mock/stats`.
    struct Reading {
        var inFlight: Int
        var peak: Int
        var hold: HoldState
    }

    private struct State {
        var arrived = 0
        var inFlight = 0
        var peak = 0
        var hold: HoldState
        var waiting: [CheckedContinuation<Void, Never>] = []
        var limitStarted = false
    }

    private let state: Locked<State>
    private let hold: Int
    private let holdAfter: Int
    private let holdLimit: Duration

    init(_ configuration: MockConfiguration) {
        state = Locked(State(hold: configuration.hold == nil ? .off : .holding))
        hold = configuration.hold ?? 0
        holdAfter = configuration.holdAfter
        holdLimit = configuration.holdLimit
    }

    /// Counts a request in; returns when the gate lets it go (at once without a hold).
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (go, startLimit) = state.withLock { state -> ([CheckedContinuation<Void, Never>], Bool) in
                state.arrived += 1
                state.inFlight += 1
                state.peak = max(state.peak, state.inFlight)
                guard state.hold == .holding, state.arrived > holdAfter else { return ([continuation], false) }
                if state.inFlight >= hold {
                    state.hold = .released
                    defer { state.waiting = [] }
                    return (state.waiting + [continuation], false)
                }
                state.waiting.append(continuation)
                defer { state.limitStarted = true }
                return ([], !state.limitStarted)
            }
            for waiter in go { waiter.resume() }
            if startLimit { startHoldLimit() }
        }
    }

    /// Counts a request out (its response head is made).
    func leave() {
        state.withLock { $0.inFlight -= 1 }
    }

    /// The readings now.
    func reading() -> Reading {
        state.withLock { Reading(inFlight: $0.inFlight, peak: $0.peak, hold: $0.hold) }
    }

    /// Opens the gate ``MockConfiguration/holdLimit`` after the first request was held, if
    /// it is still shut then: a bound for a client that never sends enough requests at once.
    private func startHoldLimit() {
        Task { [self] in
            // The sleep bounds a hang (a test whose client is wrong); a right client opens
            // the gate long before, and then the wake-up finds nothing to do.
            try? await Task.sleep(for: holdLimit)
            let go = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                guard state.hold == .holding else { return [] }
                state.hold = .timedOut
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in go { waiter.resume() }
        }
    }
}
