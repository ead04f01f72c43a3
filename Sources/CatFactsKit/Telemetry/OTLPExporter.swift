import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends a client's spans and metrics to an OTLP/HTTP collector from a thread of its own.
///
/// One exporter, and so one thread, per client that exports: each client has its own
/// collector, headers and figures, and its close must flush its own data within its own
/// bound; a process holds few clients, and a thread that sleeps until a batch or an interval
/// is due costs nothing in between. Calls never wait for it: a call only appends its finished
/// spans to a bounded queue and counts its attempts (``enqueue(_:attempts:)``), under a lock
/// held for an append. The thread sends a batch when ``ExportSettings/maxBatchSize`` spans
/// wait or the oldest has waited ``ExportSettings/scheduleDelay``; a failed batch stays queued
/// and is tried again after a backoff (0.5 s doubling to 30 s) while the queue drops its
/// oldest past the bound. Metrics go every ``ExportSettings/metricInterval`` and at close;
/// they are cumulative, so a failed metrics export is not retried: the next one carries the
/// same totals and more.
final class OTLPExporter: Sendable {
    let settings: ExportSettings
    private let resource: OTLPResource
    private let payload: MetricsPayload
    private let figures: @Sendable () -> [EndpointMetrics]
    /// The attempts' times, for `http.client.request.duration`.
    let durations = DurationHistogram()
    private let traces: OTLPPost?
    private let metrics: OTLPPost?
    private let state: Locked<State>
    /// Wakes the thread: a full batch, or the close.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled once by the thread as it ends.
    private let ended = DispatchSemaphore(value: 0)

    private struct State {
        var queue: SpanQueue
        var sent = 0
        var failures = 0
        /// When the queue's oldest span is due to go out, if it holds any.
        var spansDue: ContinuousClock.Instant?
        /// When a close began, the moment by which the thread must have ended.
        var closeBy: ContinuousClock.Instant?
        var running = false
    }

    /// The longest a close waits for the last export: 2 s, or the export timeout if smaller.
    static let closeBound = Duration.seconds(2)

    init(settings: ExportSettings, server: ServerIdentity, proxies: ProxyRule, figures: @escaping @Sendable () -> [EndpointMetrics]) {
        self.settings = settings
        resource = OTLPResource.current(serviceName: settings.serviceName,
                                        extra: settings.resourceAttributes.map { ($0.key, $0.value) })
        payload = MetricsPayload(resource: resource, server: server, start: WallClock.nanos())
        self.figures = figures
        func post(_ url: String?) -> OTLPPost? {
            guard let url, let parsed = URL(string: url) else { return nil }
            return OTLPPost(url: url, headers: settings.headers, proxy: proxies.proxy(for: parsed))
        }
        traces = post(settings.tracesURL)
        metrics = post(settings.metricsURL)
        state = Locked(State(queue: SpanQueue(capacity: settings.maxQueueSize)))
    }

    /// Starts the thread; `false` when the system refused one (the client then exports nothing).
    func start() -> Bool {
        state.withLock { $0.running = true }
        let failed = DetachedThread.start(stackSize: 1 << 20) { [self] in run() }
        if failed != 0 { state.withLock { $0.running = false } }
        return failed == 0
    }

    /// Queues a finished call's spans and records its attempts' times. Never waits but for
    /// the queue's lock; after the close, the spans are dropped (and counted).
    func enqueue(_ spans: [SpanRecord], attempts: [CallTrace.Attempt], endpoint: String) {
        for attempt in attempts {
            durations.record(.init(endpoint: endpoint, statusCode: attempt.statusCode, errorType: attempt.errorType),
                             seconds: attempt.seconds)
        }
        guard traces != nil else { return }
        // The thread may be asleep until the next metrics export: a batch that fills, or the
        // first span since the queue emptied (it sets when spans are due), wakes it.
        let (full, first) = state.withLock { state in
            let first = state.spansDue == nil
            state.queue.append(spans)
            if first { state.spansDue = ContinuousClock.now + settings.scheduleDelay }
            return (state.queue.count >= settings.maxBatchSize, first)
        }
        if full || first { wake.signal() }
    }

    /// The figures the metrics JSON shows.
    func exportState() -> ExportState {
        state.withLock { state in
            ExportState(endpoint: settings.endpoint, sent: state.sent, dropped: state.queue.dropped,
                        failures: state.failures, queued: state.queue.count, warnings: settings.warnings)
        }
    }

    /// Flushes what is queued and the metrics, and ends the thread: returns within
    /// ``closeBound`` (or the export timeout if smaller), whatever the collector does.
    func close() {
        let bound = min(Self.closeBound, settings.exportTimeout)
        let running = state.withLock { state -> Bool in
            if state.closeBy == nil { state.closeBy = ContinuousClock.now + bound }
            return state.running
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
                if exportSpans(deadline: now + settings.exportTimeout) {
                    backoff = .milliseconds(500)
                    spansRetryAt = nil
                } else {
                    spansRetryAt = now + backoff
                    backoff = min(backoff * 2, .seconds(30))
                }
                continue
            }
            if metricsDue <= now {
                exportMetrics(deadline: now + settings.exportTimeout)
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
            guard exportSpans(deadline: min(closeBy, ContinuousClock.now + settings.exportTimeout)) else { break }
        }
        if ContinuousClock.now < closeBy { exportMetrics(deadline: closeBy) }
        state.withLock { $0.running = false }
        ended.signal()
    }

    /// Sends the oldest batch; whether the collector took it.
    private func exportSpans(deadline: ContinuousClock.Instant) -> Bool {
        guard let traces, let batch = state.withLock({ $0.queue.peek(settings.maxBatchSize) }) else {
            state.withLock { $0.spansDue = nil }
            return true
        }
        let failure = traces.send(OTLPTraceRequest(resource: resource, spans: batch.spans).json(), deadline: deadline,
                                  giveUp: closePassed)
        state.withLock { state in
            if failure == nil {
                state.queue.remove(through: batch.last)
                state.sent += batch.spans.count
                state.spansDue = state.queue.count > 0 ? ContinuousClock.now + settings.scheduleDelay : nil
            } else {
                state.failures += 1
            }
        }
        return failure == nil
    }

    /// Sends the metrics as they are now.
    private func exportMetrics(deadline: ContinuousClock.Instant) {
        guard let metrics else { return }
        let request = payload.request(endpoints: figures(), durations: durations.snapshot(),
                                      memoryBytes: MemoryUsage.current().residentBytes, now: WallClock.nanos())
        let points = request.resourceMetrics.flatMap(\.scopeMetrics).flatMap(\.metrics).reduce(0) {
            $0 + ($1.histogram?.dataPoints.count ?? 0) + ($1.sum?.dataPoints.count ?? 0) + ($1.gauge?.dataPoints.count ?? 0)
        }
        let failure = metrics.send(request.json(), deadline: deadline, giveUp: closePassed)
        state.withLock { state in
            if failure == nil { state.sent += points } else { state.failures += 1 }
        }
    }

    /// Whether a close began and its deadline passed: a transfer under way is given up.
    private func closePassed() -> Bool {
        state.withLock { $0.closeBy.map { ContinuousClock.now >= $0 } ?? false }
    }
}
