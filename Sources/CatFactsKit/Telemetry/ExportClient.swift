/// What makes two clients share an exporter: the same settings (collector, encoding,
/// headers, timeouts, bounds...) and the same proxies for its URLs.
struct ExporterKey: Hashable {
    let settings: ExportSettings
    let proxies: [String?]
}

/// One client's place in the process's shared exporter (``OTLPExporter``): its id (the
/// `catfacts.client.id` of its metric points), the server it talks to, its attempts' times,
/// and its figures. ``close()`` leaves the exporter (the last to leave flushes it); after
/// it, the client's spans are no longer exported.
final class ExportClient: Sendable {
    let id: Int
    let exporter: OTLPExporter
    let server: ServerIdentity
    /// When the client began counting: the start of its cumulative points.
    let start: UInt64
    /// The attempts' times, for `http.client.request.duration`.
    let durations = DurationHistogram()
    private let endpoints: @Sendable () -> [EndpointMetrics]
    private let key: ExporterKey
    private let attached = Locked(true)

    fileprivate init(id: Int, exporter: OTLPExporter, key: ExporterKey, server: ServerIdentity,
                     endpoints: @escaping @Sendable () -> [EndpointMetrics]) {
        self.id = id
        self.exporter = exporter
        self.key = key
        self.server = server
        self.endpoints = endpoints
        start = Timestamp.unixNanoseconds()
    }

    /// Queues a finished call's spans and records its attempts' times; after ``close()``, nothing.
    func enqueue(_ spans: [SpanRecord], attempts: [CallTrace.Attempt], endpoint: String) {
        guard attached.withLock({ $0 }) else { return }
        for attempt in attempts {
            durations.record(.init(endpoint: endpoint, statusCode: attempt.statusCode, errorType: attempt.errorType),
                             seconds: attempt.seconds)
        }
        exporter.enqueue(spans, from: id)
    }

    /// The client's figures as its metrics export sends them now.
    func figures() -> MetricsPayload.Client {
        MetricsPayload.Client(id: id, server: server, start: start, endpoints: endpoints(), durations: durations.snapshot())
    }

    /// The figures the metrics JSON shows.
    func exportState() -> ExportState { exporter.exportState(of: id) }

    /// Leaves the exporter: the last client to leave flushes it and ends its thread (bounded,
    /// ``OTLPExporter/closeBound``). Later calls do nothing.
    func close() {
        let wasAttached = attached.withLock { attached in
            defer { attached = false }
            return attached
        }
        guard wasAttached else { return }
        ExporterRegistry.detach(self, key: key)
    }
}

/// The process's exporters, one per ``ExporterKey``, while a client uses it.
enum ExporterRegistry {
    private struct Registry {
        var exporters: [ExporterKey: (exporter: OTLPExporter, clients: Int)] = [:]
        var nextID = 1
    }

    private static let registry = Locked(Registry())

    /// `settings`' exporter (made if no client has it) with a new client in it; `nil` when the
    /// system refused the exporter a thread.
    static func attach(settings: ExportSettings, proxies: ProxyRule, server: ServerIdentity,
                       endpoints: @escaping @Sendable () -> [EndpointMetrics]) -> ExportClient? {
        let choices = [settings.tracesURL, settings.metricsURL].map { url in url.flatMap(WebAddress.init(string:)).flatMap { proxies.proxy(for: $0).proxy } }
        let key = ExporterKey(settings: settings, proxies: choices)
        let client = registry.withLock { registry -> ExportClient in
            let exporter = registry.exporters[key]?.exporter ?? OTLPExporter(settings: settings, proxies: proxies)
            registry.exporters[key] = (exporter, (registry.exporters[key]?.clients ?? 0) + 1)
            defer { registry.nextID += 1 }
            return ExportClient(id: registry.nextID, exporter: exporter, key: key, server: server, endpoints: endpoints)
        }
        guard client.exporter.attach(client) else {
            detach(client, key: key)
            return nil
        }
        return client
    }

    /// `client` leaves its exporter; the last one flushes it and the registry forgets it.
    fileprivate static func detach(_ client: ExportClient, key: ExporterKey) {
        let last = registry.withLock { registry -> Bool in
            guard let entry = registry.exporters[key], entry.exporter === client.exporter else { return true }
            if entry.clients <= 1 {
                registry.exporters[key] = nil
                return true
            }
            registry.exporters[key] = (entry.exporter, entry.clients - 1)
            return false
        }
        client.exporter.detach(client, final: client.figures(), last: last)
    }
}
