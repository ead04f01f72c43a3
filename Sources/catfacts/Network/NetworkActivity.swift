import CatFactsKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the shell's client is doing on the network: the requests in flight (which the
/// spinner names), the last failure (while a retry waits), whether the server was reached
/// or not (for the one-line offline notice), and a count of requests recorded in the metrics
/// (which `metrics --watch` redraws on).
///
/// Fed by the client's activity listener around every request and by the metrics listener
/// after each one; read by the session and the spinner, from any thread.
final class NetworkActivity: Sendable {
    /// How the network answered since the session last looked.
    enum Reachability: Equatable, Sendable {
        /// No request went out.
        case unknown
        /// A request got a response.
        case reached
        /// Requests failed to reach the server; the last failure.
        case unreachable(CatFactsError)
    }

    private struct State {
        var inFlight: [(id: Int, label: String)] = []
        var lastFailure: (label: String, error: CatFactsError)?
        var reachability = Reachability.unknown
        var lastReached: Bool?
        var recorded = 0
    }

    private let state = Locked(State())

    init() {}

    /// The client's activity listener (``CatFactsClient/setActivityListener(_:)``).
    func observe(_ activity: RequestActivity) {
        switch activity.phase {
        case .began: began(activity.id, label: "GET " + Self.pathAndQuery(activity.url))
        case .ended(let error): ended(activity.id, error: error)
        }
    }

    /// A request is going out.
    private func began(_ id: Int, label: String) {
        state.withLock { $0.inFlight.append((id, label)) }
    }

    /// The request `id` ended: with a response (whatever its status), or with the
    /// transport's `error` when there was no whole response.
    private func ended(_ id: Int, error: CatFactsError?) {
        state.withLock { state in
            guard let index = state.inFlight.firstIndex(where: { $0.id == id }) else { return }
            let label = state.inFlight.remove(at: index).label
            switch error {
            case nil:
                state.lastFailure = nil
                state.reachability = .reached
                state.lastReached = true
            case let error? where error.status == .network || error.status == .timeout:
                state.lastFailure = (label, error)
                state.reachability = .unreachable(error)
                state.lastReached = false
            case let error? where error.status == .decode:
                // A body over the size cap: the server answered, too much.
                state.lastFailure = (label, error)
                state.reachability = .reached
                state.lastReached = true
            case let error?:
                // Cancelled, or --offline: nothing was learnt about the server.
                state.lastFailure = (label, error)
            }
        }
    }

    /// Whether the last request that went out reached the server (got any response);
    /// `nil` before the first.
    var lastRequestReached: Bool? { state.withLock { $0.lastReached } }

    /// The metrics recorded a request (called by the metrics listener).
    func recorded() {
        state.withLock { $0.recorded += 1 }
    }

    /// Requests the metrics have recorded so far.
    var recordedCount: Int { state.withLock { $0.recorded } }

    /// What the client waits for now, for the spinner: the request in flight, or the
    /// retry of the one that just failed; `nil` when nothing is under way.
    var waitingFor: String? {
        state.withLock { state in
            if let first = state.inFlight.first {
                let more = state.inFlight.count > 1 ? " (+\(state.inFlight.count - 1) more)" : ""
                return "\(first.label)\(more) …"
            }
            if let failure = state.lastFailure {
                return "\(failure.label) failed (\(failure.error.status.phrase)); retrying …"
            }
            return nil
        }
    }

    /// Forgets the last failure (a new command starts: nothing is being retried).
    func clearFailure() {
        state.withLock { $0.lastFailure = nil }
    }

    /// How the network answered since the last call, and resets it to `.unknown`.
    func takeReachability() -> Reachability {
        state.withLock { state in
            defer { state.reachability = .unknown }
            return state.reachability
        }
    }

    /// `/breeds?page=2&limit=10` for a request URL.
    static func pathAndQuery(_ url: WebAddress) -> String {
        let path = url.path.isEmpty ? "/" : url.path
        return url.query.map { "\(path)?\($0)" } ?? path
    }
}
