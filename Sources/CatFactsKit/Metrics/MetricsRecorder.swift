
/// Counts and times every request a client makes, per endpoint, and reads the state of its
/// cache into each snapshot. Safe from any thread.
public final class MetricsRecorder: Sendable {
    /// Called after every request, on the thread that finished it.
    public typealias Listener = @Sendable (RequestEvent) -> Void

    private struct State {
        var endpoints: [String: EndpointStats] = [:]
        var online = true
    }

    private let state = Locked(State())
    private let listener = ListenerSlot<RequestEvent>()
    /// The client's cache, whose state each snapshot reads; `nil` when it has none.
    private let store: ResponseStore?
    /// Reads the OTLP exporter's figures into each snapshot; set by the client that exports.
    private let exportState = Locked<ExportStateReader?>(nil)

    /// The reader, in a struct: a `Locked` whose value is itself a closure has it reabstracted
    /// through `withLock`'s `inout` on each access (debug and release builds alike), each time
    /// wrapped in two more thunks and stored back, so that every snapshot nested the reader
    /// deeper (0.1.0 crashed a 128 kB thread after 1,000 reads, an 8 MB one after 30,000).
    private struct ExportStateReader {
        let read: @Sendable () -> ExportState?
    }

    /// A recorder for a client with `store` as its cache (`nil`: none, or not the recorder's concern).
    public init(store: ResponseStore? = nil) {
        self.store = store
    }

    /// Removes the listener and waits until no other thread is inside a call of it, so
    /// whatever it uses may be freed (`cf_client_close`).
    public func removeListenerAndWait() {
        listener.clear()
    }

    /// Sets or, with `nil`, removes the listener called after each request.
    public func setListener(_ newListener: Listener?) {
        listener.set(newListener)
    }

    /// Sets what each snapshot's ``MetricsSnapshot/export`` reads (the client's exporter).
    package func setExportState(_ read: @escaping @Sendable () -> ExportState?) {
        exportState.withLock { $0 = ExportStateReader(read: read) }
    }

    /// Records one request sent to `endpoint`.
    ///
    /// - Parameters:
    ///   - elapsed: wall time from sending to the whole body, or to the failure.
    ///   - bytes: body bytes received.
    ///   - gotResponse: whether a whole response came back (its time then counts in the times).
    ///   - error: the failure, if the request failed.
    package func recordRequest(endpoint: String, elapsed: Duration, bytes: Int,
                              gotResponse: Bool, error: CatFactsError?) {
        state.withLock { state in
            // In place: a copy taken out of the dictionary and stored back would share the
            // histogram's counts, so recording into it copied them on every request.
            state.endpoints[endpoint, default: EndpointStats()].record(
                bytes: bytes, failed: error != nil,
                micros: gotResponse ? UInt64(Swift.max(0, elapsed.milliseconds * 1000).rounded()) : nil)
        }
        let event = RequestEvent(endpoint: endpoint, milliseconds: elapsed.milliseconds,
                                 status: error?.status ?? .ok)
        // Called outside the state's lock, so a listener may read the metrics.
        listener.call([event])
    }

    /// Records a call to `endpoint` answered from the cache, without a request.
    package func recordCacheHit(endpoint: String) {
        state.withLock { $0.endpoints[endpoint, default: EndpointStats()].cacheHits += 1 }
    }

    /// Records a retry of a request to `endpoint`.
    package func recordRetry(endpoint: String) {
        state.withLock { $0.endpoints[endpoint, default: EndpointStats()].retries += 1 }
    }

    /// Whether the client is online: `false` while it is offline after requests in a row
    /// got no response (see ``ClientOptions/offlineAfterFailures``); `true` at first.
    public var online: Bool { state.withLock { $0.online } }

    /// Sets the online state (the client's offline monitor does).
    func setOnline(_ online: Bool) {
        state.withLock { $0.online = online }
    }

    /// The figures per endpoint, sorted by path.
    public func endpoints() -> [EndpointMetrics] {
        state.withLock { state in
            state.endpoints.sorted { $0.key < $1.key }.map { $0.value.snapshot(endpoint: $0.key) }
        }
    }

    /// Everything: endpoints, device, OS, app, memory, online state, the cache.
    public func snapshot() -> MetricsSnapshot {
        let endpoints = endpoints()
        let cache = store?.state(hits: endpoints.reduce(0) { $0 + $1.cacheHits })
        return MetricsSnapshot(endpoints: endpoints, system: SystemInfo.current, memory: MemoryUsage.current(),
                               online: online, collectedAt: .now, cache: cache, export: exportState.withLock { $0 }?.read())
    }
}
