import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends the spans and metrics of every client that exports to one collector with the same
/// settings (``ExporterKey``) from one thread: one exporter per process and settings, as an
/// OpenTelemetry SDK has, so 20 clients cost one thread, not 20. ``ExportClient`` is a
/// client's place in it (``attach(_:)``, ``ExportClient/close()``); the last client to leave
/// flushes and ends the thread.
///
/// Calls never wait for it: a call only appends its finished spans to a bounded queue and
/// counts its attempts (``ExportClient/enqueue(_:attempts:endpoint:)``), under a lock held for
/// an append. The thread sends a batch, whoever's spans it holds, when
/// ``ExportSettings/maxBatchSize`` spans wait or the oldest has waited
/// ``ExportSettings/scheduleDelay``; a failed batch stays queued and is tried again after a
/// backoff (0.5 s doubling to 30 s) while the queue drops its oldest past the bound. Metrics
/// go every ``ExportSettings/metricInterval`` and at the last close, each client's points
/// marked with its `catfacts.client.id`; they are cumulative, so a failed metrics export is
/// not retried: the next one carries the same totals and more.
///
/// The thread starts when the first client attaches and is started again by the first
/// client that attaches or queues after a `fork` (a child inherits the exporter, not its
/// thread); the child then drops the spans it inherited, which its parent sends.
final class OTLPExporter: Sendable {
    let settings: ExportSettings
    private let resource: OTLPResource
    private let payload: MetricsPayload
    private let traces: OTLPPost?
    private let metrics: OTLPPost?
    private let state: Locked<State>
    /// Wakes the thread: a full batch, or the close.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled once by the thread as it ends.
    private let ended = DispatchSemaphore(value: 0)

    private struct State {
        var queue: SpanQueue
        var clients: [Int: ExportClient] = [:]
        /// The last figures of clients that left while others stayed: sent with the next metrics.
        var departed: [MetricsPayload.Client] = []
        /// Per client: spans and metric points the collector took.
        var sentBy: [Int: Int] = [:]

        /// Counts `delivered` (per client) to the clients still attached: one gone is
        /// forgotten, so nothing is kept per client once it left (clients come and go).
        mutating func credit(_ delivered: [Int: Int]) {
            for (id, count) in delivered where clients[id] != nil { sentBy[id, default: 0] += count }
        }
        var failures = 0
        /// When the queue's oldest span is due to go out, if it holds any.
        var spansDue: ContinuousClock.Instant?
        /// When the close began, the moment by which the thread must have ended.
        var closeBy: ContinuousClock.Instant?
        /// The process whose thread is running, if one is: after a `fork`, not this one.
        var threadProcess: pid_t?
    }

    /// The longest a close waits for the last export: 2 s, or the export timeout if smaller.
    static let closeBound = Duration.seconds(2)

    init(settings: ExportSettings, proxies: ProxyRule) {
        self.settings = settings
        resource = OTLPResource.current(serviceName: settings.serviceName,
                                        extra: settings.resourceAttributes.map { ($0.key, $0.value) })
        payload = MetricsPayload(resource: resource)
        func post(_ signal: SignalExport?) -> OTLPPost? {
            guard let signal, let parsed = WebAddress(string: signal.url) else { return nil }
            return OTLPPost(signal: signal, proxy: proxies.proxy(for: parsed))
        }
        traces = post(settings.traces)
        metrics = post(settings.metrics)
        state = Locked(State(queue: SpanQueue(capacity: settings.maxQueueSize)))
    }

    var exportsSpans: Bool { traces != nil }

    /// Adds `client` (``ExporterRegistry`` calls it) and makes sure the thread runs; `false`
    /// when the system refused a thread (the client then exports nothing).
    func attach(_ client: ExportClient) -> Bool {
        state.withLock { $0.clients[client.id] = client }
        guard ensureThread() else {
            state.withLock { $0.clients[client.id] = nil }
            return false
        }
        return true
    }

    /// Starts the thread unless it runs in this process; `false` when the system refused one.
    @discardableResult
    func ensureThread() -> Bool {
        let process = getpid()
        let start = state.withLock { state -> Bool in
            guard state.threadProcess != process else { return false }
            if state.threadProcess != nil {
                // A forked child: its parent's thread is not here, and its parent sends the spans queued.
                let inherited = state.queue.peek(state.queue.count)
                if let inherited { state.queue.remove(through: inherited.last) }
                state.spansDue = nil
            }
            state.threadProcess = process
            state.closeBy = nil
            return true
        }
        guard start else { return true }
        let failed = DetachedThread.start(stackSize: 1 << 20) { [self] in run() }
        if failed != 0 { state.withLock { $0.threadProcess = nil } }
        return failed == 0
    }

    /// Queues `client`'s finished spans. Never waits but for the queue's lock.
    func enqueue(_ spans: [SpanRecord], from client: Int) {
        guard traces != nil, !spans.isEmpty else { return }
        ensureThread()
        // The thread may be asleep until the next metrics export: a batch that fills, or the
        // first span since the queue emptied (it sets when spans are due), wakes it.
        let (full, first) = state.withLock { state in
            let first = state.spansDue == nil
            state.queue.append(spans, owner: client)
            if first { state.spansDue = ContinuousClock.now + settings.scheduleDelay }
            return (state.queue.count >= settings.maxBatchSize, first)
        }
        if full || first { wake.signal() }
    }

    /// How many clients the exporter keeps figures for, each counted once wherever it is held:
    /// those attached, and none of those gone (a bound the tests check).
    var clientsTracked: Int {
        state.withLock { state in Set(state.sentBy.keys).union(state.clients.keys).union(state.queue.ownersTracked).count }
    }

    /// The figures `client`'s metrics JSON shows: its own spans and points, the exporter's failures.
    func exportState(of client: Int) -> ExportState {
        state.withLock { state in
            ExportState(endpoint: settings.endpoint, sent: state.sentBy[client] ?? 0, dropped: state.queue.dropped(by: client),
                        failures: state.failures, queued: state.queue.queued(by: client), warnings: settings.warnings,
                        tracesEndpoint: settings.tracesURL.map(ProxyChoice.redacted),
                        metricsEndpoint: settings.metricsURL.map(ProxyChoice.redacted))
        }
    }

    /// `client` leaves; `last` (the registry knows): the others are gone too, so what is
    /// queued and every client's metrics are sent, and the thread ends, all within
    /// ``closeBound`` (or the export timeout if smaller), whatever the collector does. Else its
    /// final figures go with the next metrics export and its spans with their batch.
    func detach(_ client: ExportClient, final: MetricsPayload.Client, last: Bool) {
        state.withLock { state in
            state.clients[client.id] = nil
            state.sentBy[client.id] = nil
            state.queue.forget(client.id)
            // Kept only for a metrics export to come: without one it would only pile up.
            if metrics != nil { state.departed.append(final) }
        }
        guard last else { return }
        let bound = min(Self.closeBound, settings.exportTimeout)
        let running = state.withLock { state -> Bool in
            if state.closeBy == nil { state.closeBy = ContinuousClock.now + bound }
            return state.threadProcess == getpid()
        }
        guard running else { return }
        wake.signal()
        // Every transfer ends by the close's deadline (OTLPPost polls at most 50 ms at a
        // time), so the thread ends soon after it; the margin covers a slow machine.
        // Passed on, so a second close waiting at the same time wakes too.
        if ended.wait(timeout: .now() + .milliseconds(Int(bound.seconds * 1000) + 500)) == .success { ended.signal() }
    }

    // MARK: The thread

    private func run() {
        // Each signal's handles, kept for the thread's life: the collector's connection is reused.
        let connections = (spans: OTLPConnection(), metrics: OTLPConnection())
        var backoff = Duration.milliseconds(500)
        var spansRetryAt: ContinuousClock.Instant?
        var metricsDue = ContinuousClock.now + settings.metricInterval
        while true {
            let now = ContinuousClock.now
            let (due, closing) = state.withLock { state in
                (state.queue.count >= settings.maxBatchSize ? now : state.spansDue, state.closeBy != nil)
            }
            if closing { break }
            if let due, due <= now, spansRetryAt.map({ $0 <= now }) ?? true {
                if exportSpans(over: connections.spans, deadline: now + (traces?.signal.timeout ?? settings.exportTimeout)) {
                    backoff = .milliseconds(500)
                    spansRetryAt = nil
                } else {
                    spansRetryAt = now + backoff
                    backoff = min(backoff * 2, .seconds(30))
                }
                continue
            }
            if metricsDue <= now {
                exportMetrics(over: connections.metrics, deadline: now + (metrics?.signal.timeout ?? settings.exportTimeout))
                metricsDue = ContinuousClock.now + settings.metricInterval
                continue
            }
            var next = metricsDue
            if let due { next = min(next, max(due, spansRetryAt ?? due)) }
            let wait = max(.milliseconds(1), next - now)
            _ = self.wake.wait(timeout: .now() + .nanoseconds(Int(min(wait, .seconds(3600)).seconds * 1e9)))
        }
        // The close: what is queued, then the metrics, all by the close's deadline.
        let closeBy = state.withLock { $0.closeBy } ?? ContinuousClock.now
        while state.withLock({ $0.queue.count > 0 }), ContinuousClock.now < closeBy {
            guard exportSpans(over: connections.spans,
                              deadline: min(closeBy, ContinuousClock.now + (traces?.signal.timeout ?? settings.exportTimeout)))
            else { break }
        }
        if ContinuousClock.now < closeBy { exportMetrics(over: connections.metrics, deadline: closeBy) }
        state.withLock { $0.threadProcess = nil }
        ended.signal()
    }

    /// Sends the oldest batch; whether the collector took it.
    private func exportSpans(over connection: OTLPConnection, deadline: ContinuousClock.Instant) -> Bool {
        guard let traces, let batch = state.withLock({ $0.queue.peek(settings.maxBatchSize) }) else {
            state.withLock { $0.spansDue = nil }
            return true
        }
        let request = OTLPTraceRequest(resource: resource, spans: batch.spans)
        let failure = traces.send(traces.body(protobuf: request.protobuf, json: request.json), over: connection, deadline: deadline,
                                  giveUp: closePassed)
        state.withLock { state in
            if failure == nil {
                state.credit(state.queue.remove(through: batch.last))
                state.spansDue = state.queue.count > 0 ? ContinuousClock.now + settings.scheduleDelay : nil
            } else {
                state.failures += 1
            }
        }
        return failure == nil
    }

    /// Sends every client's metrics as they are now, and the last of those that left.
    private func exportMetrics(over connection: OTLPConnection, deadline: ContinuousClock.Instant) {
        guard let metrics else { return }
        let (attached, departed) = state.withLock { state in
            defer { state.departed = [] }
            return (state.clients.values.sorted { $0.id < $1.id }, state.departed)
        }
        let clients = attached.map { $0.figures() } + departed
        guard !clients.isEmpty else { return }
        let request = payload.request(clients: clients, memoryBytes: MemoryUsage.current().residentBytes, now: Timestamp.unixNanoseconds())
        let failure = metrics.send(metrics.body(protobuf: request.protobuf, json: request.json), over: connection, deadline: deadline,
                                   giveUp: closePassed)
        state.withLock { state in
            guard failure == nil else {
                state.failures += 1
                return
            }
            state.credit(Self.points(of: request, clients: clients.compactMap(\.id)))
        }
    }

    /// Each client's data points in `request`: those marked with its `catfacts.client.id`, and
    /// the unmarked ones (the process's memory), which its export carried too.
    private static func points(of request: OTLPMetricsRequest, clients: [Int]) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        func count(_ attributes: [OTLPAttribute]) {
            if case .int(let id)? = attributes.first(where: { $0.key == "catfacts.client.id" })?.value {
                counts[id, default: 0] += 1
            } else {
                for id in clients { counts[id, default: 0] += 1 }
            }
        }
        for metric in request.resourceMetrics.flatMap(\.scopeMetrics).flatMap(\.metrics) {
            metric.histogram?.dataPoints.forEach { count($0.attributes) }
            metric.sum?.dataPoints.forEach { count($0.attributes) }
            metric.gauge?.dataPoints.forEach { count($0.attributes) }
        }
        return counts
    }

    /// Whether a close began and its deadline passed: a transfer under way is given up.
    private func closePassed() -> Bool {
        state.withLock { $0.closeBy.map { ContinuousClock.now >= $0 } ?? false }
    }
}
