
/// Whether the server is reachable, from the outcome of every call.
///
/// After ``threshold`` calls in a row got no response (network error or timeout, after their
/// retries: a call counts once), the
/// client is offline for ``cooldown``: calls answer from the cache or the bundled catalog at
/// once, without waiting out timeouts. A probe (see ``CatFactsClient``) or any request that
/// gets a response brings it back online; after the cool-down, calls try the network again,
/// and one more failure starts another cool-down.
final class OfflineMonitor: Sendable {
    /// What a recorded outcome changed.
    enum Transition: Equatable { case none, wentOffline, cameOnline }

    private struct State {
        var failures = 0
        var offline = false
        var offlineUntil: ContinuousClock.Instant?
    }

    let threshold: Int
    let cooldown: Duration
    private let state = Locked(State())

    init(threshold: Int, cooldown: Duration) {
        self.threshold = threshold
        self.cooldown = cooldown
    }

    /// Whether the client considers itself offline (probing until the server answers).
    var isOffline: Bool { state.withLock { $0.offline } }

    /// Whether calls must not touch the network now: offline, within the cool-down.
    var bypassesNetwork: Bool {
        state.withLock { state in
            guard state.offline, let until = state.offlineUntil else { return false }
            return ContinuousClock.now < until
        }
    }

    /// The cool-down left, for messages; zero when online.
    var remainingCooldown: Duration {
        state.withLock { state in
            guard state.offline, let until = state.offlineUntil else { return .zero }
            return max(.zero, until - ContinuousClock.now)
        }
    }

    /// Records a call that got no response, retries and all.
    func recordFailure() -> Transition {
        state.withLock { state in
            state.failures += 1
            guard state.failures >= threshold else { return .none }
            state.offlineUntil = ContinuousClock.now + cooldown
            if state.offline { return .none }
            state.offline = true
            return .wentOffline
        }
    }

    /// Records a request that got a response (whatever its status).
    func recordSuccess() -> Transition {
        state.withLock { state in
            state.failures = 0
            state.offlineUntil = nil
            guard state.offline else { return .none }
            state.offline = false
            return .cameOnline
        }
    }
}
