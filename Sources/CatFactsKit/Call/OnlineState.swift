
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
        if transition == .wentOffline { startProbe() }
        Self.publish(transition, metrics: metrics, listener: listener)
    }

    /// Tells the metrics' online flag and the listener of a change.
    private static func publish(_ transition: OfflineMonitor.Transition, metrics: MetricsRecorder,
                                listener: ListenerSlot<Bool>) {
        switch transition {
        case .none:
            return
        case .wentOffline:
            metrics.setOnline(false)
            listener.call([false])
        case .cameOnline:
            metrics.setOnline(true)
            listener.call([true])
        }
    }

    /// Probes the server while offline: after 1 s, then twice as long each time, up to
    /// ``ClientOptions/probeInterval`` — soon after a short outage, cheaply during a long one.
    ///
    /// The task holds the parts it needs (the monitor, the metrics, the listener, the probe),
    /// never this state, so the state ends with the client and its `deinit` cancels the task.
    /// (It held `self` weakly once: a process that exited while the cancelled task was ending
    /// left the weak reference's side table unreachable, a definite leak under valgrind.)
    private func startProbe() {
        let longest = longestProbeInterval
        let (monitor, metrics, listener, probe) = (self.monitor, self.metrics, self.listener, self.probe)
        let task = Task.detached {
            var interval = min(Duration.seconds(1), longest)
            while !Task.isCancelled {
                do { try await TimedWait.sleep(for: interval) } catch { return }
                guard monitor.isOffline else { return }
                // Still unreachable: the cool-down is not extended by probes, only by calls.
                if await probe() {
                    OnlineState.publish(monitor.recordSuccess(), metrics: metrics, listener: listener)
                }
                interval = min(interval * 2, longest)
            }
        }
        probeTask.withLock { old in
            old?.cancel()
            old = task
        }
    }
}
