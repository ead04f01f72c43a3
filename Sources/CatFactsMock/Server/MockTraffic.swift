import CatFactsKit

/// The per-request decisions every connection shares: which requests fail and how, how long
/// each waits, and how many each path has served.
///
/// One lock per request guards a seedable generator and the counters, so a seeded run makes
/// the same choices in the same request order.
final class MockTraffic: Sendable {
    /// What happens to one request.
    struct Decision {
        /// The fault to inject, if any.
        var fault: MockFault?
        /// How long to wait before the response head (latency plus jitter).
        var delay: Duration
        /// A random draw for the route (`/fact` picks its fact with it).
        var random: UInt64
    }

    private struct State {
        var generator: SplitMix64
        var served = 0
        var servedByPath: [String: Int] = [:]
        var nextFault = 0
    }

    private let state: Locked<State>
    private let faults: [MockFault]
    private let faultOrder: MockFaultOrder
    private let failFirst: Int
    private let failRate: Double
    private let latency: Int64
    private let jitter: Int64

    init(_ configuration: MockConfiguration) {
        var seeder = SystemRandomNumberGenerator()
        state = Locked(State(generator: SplitMix64(seed: configuration.seed ?? seeder.next())))
        faults = configuration.faults.isEmpty ? [.serverError] : configuration.faults
        faultOrder = configuration.faultOrder
        failFirst = configuration.failFirst
        failRate = configuration.failRate
        latency = configuration.latency.nanoseconds
        jitter = abs(configuration.jitter.nanoseconds)
    }

    /// Counts a request to `path` and decides its fate.
    func admit(path: String) -> Decision {
        state.withLock { state in
            state.served += 1
            state.servedByPath[path, default: 0] += 1
            var fails = state.served <= failFirst
            if !fails, failRate > 0 {
                fails = Double.random(in: 0..<1, using: &state.generator) < failRate
            }
            var fault: MockFault?
            if fails {
                switch faultOrder {
                case .turn:
                    fault = faults[state.nextFault % faults.count]
                    state.nextFault += 1
                case .random:
                    fault = faults[Int.random(in: 0..<faults.count, using: &state.generator)]
                }
            }
            var delay = latency
            if jitter > 0 {
                delay = max(0, delay + Int64.random(in: -jitter...jitter, using: &state.generator))
            }
            return Decision(fault: fault, delay: .nanoseconds(delay), random: state.generator.next())
        }
    }

    /// Requests served so far: all of them, or those to `path`.
    func count(path: String?) -> Int {
        state.withLock { state in
            guard let path else { return state.served }
            return state.servedByPath[path] ?? 0
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating far beyond any delay the mock uses.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
