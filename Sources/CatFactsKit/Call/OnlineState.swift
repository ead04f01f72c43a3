
/// Whether the client is online, what changes it, and who hears of it: the
/// ``OfflineMonitor``'s count of calls that got no response, the metrics' online flag, the
/// online listener, and the probe that looks for the server while offline.
final class OnlineState: Sendable {
    let monitor: OfflineMonitor
    private let metrics: MetricsRecorder
    let listener = ListenerSlot<Bool>()
    private let probeTask = Locked<Task<Void, Never>?>(nil)
    /// Sends one probe; `true` when any response came back.
    private let probe: @Sendable () async -> Bool
    private let longestProbeInterval: Duration

    init(monitor: OfflineMonitor, metrics: MetricsRecorder, probeInterval: Duration,
         probe: @escaping @Sendable () async -> Bool) {
        self.monitor = monitor
        self.metrics = metrics
        self.longestProbeInterval = probeInterval
        self.probe = probe
    }

    deinit {
        probeTask.withLock { $0?.cancel() }
    }

    var isOffline: Bool { monitor.isOffline }

    /// A request got a response, whatever its status: the server is there.
    func recordResponse() {
        announce(monitor.recordSuccess())
    }

    /// A call got no response, retries and all: it counts once towards going offline.
    func recordCallWithoutResponse() {
        announce(monitor.recordFailure())
    }

    /// Updates the metrics' online flag and the listener after a change, and starts the probe.
    private func announce(_ transition: OfflineMonitor.Transition) {
        switch transition {
        case .none:
            return
        case .wentOffline:
            metrics.setOnline(false)
            startProbe()
            listener.call([false])
        case .cameOnline:
            metrics.setOnline(true)
            listener.call([true])
        }
    }

    /// Probes the server while offline: after 1 s, then twice as long each time, up to
    /// ``ClientOptions/probeInterval`` — soon after a short outage, cheaply during a long one.
    /// The task holds this state only weakly (and only during a probe), so it ends with the client.
    private func startProbe() {
        let longest = longestProbeInterval
        let task = Task.detached { [weak self] in
            var interval = min(Duration.seconds(1), longest)
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                guard let state = self, state.monitor.isOffline else { return }
                // Still unreachable: the cool-down is not extended by probes, only by calls.
                if await state.probe() { state.recordResponse() }
                interval = min(interval * 2, longest)
            }
        }
        probeTask.withLock { old in
            old?.cancel()
            old = task
        }
    }
}
