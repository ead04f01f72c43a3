/// The Cat Facts API, with every request measured and every page cached.
///
/// Pages (`/breeds`, `/facts`) go into a cache (``ResponseStore``: memory, or the file
/// ``ClientOptions/cachePath``). A cached page younger than ``ClientOptions/cacheTTL`` answers
/// without a request; an older one is revalidated (a 304 answers from the cache); and when the
/// server cannot answer, the cached page does, whatever its age, labelled ``Source/cache`` with
/// its real `fetchedAt`. After ``ClientOptions/offlineAfterFailures`` calls in a row got no
/// response, the client is offline: calls answer from the cache or the bundled catalog at
/// once, until a probe finds the server again. Random facts (`/fact`) are never cached.
///
/// A call goes down one pipeline, each stage a type of its own (`Sources/CatFactsKit/Call`):
/// ``OfflineFallback`` (with the call's deadline) → ``CachePolicy`` → ``RetryLoop`` (retries,
/// Retry-After, the offline gate) → ``RequestSender`` (the transport, decoding, metrics) —
/// and ``OnlineState`` hears from the last two whether the server answers.
///
/// ```swift
/// let client = try CatFactsClient(options: ClientOptions(baseURL: "http://127.0.0.1:8106"))
/// let page = try await client.breeds(page: 1, limit: 10)
/// print(page.items.map(\.breed), client.metrics.snapshot().json())
/// ```
/// Safe to share between tasks and threads.
public final class CatFactsClient: Sendable {
    /// The options it was created with.
    public let options: ClientOptions
    /// Every request's count and time, per endpoint, and the cache's state.
    public let metrics: MetricsRecorder
    /// The base URL, validated.
    public var baseURL: WebAddress { address.baseURL }
    /// The page cache; `nil` when ``ClientOptions/cacheMaxBytes`` is 0.
    public let store: ResponseStore?
    /// The breeds seen so far, for ``breed(named:)``.
    let knownBreeds = KnownBreeds()
    /// Every breed, once a query has needed them all.
    let catalogView = Locked<BreedCatalogView?>(nil)
    /// Where the catalog views' denied prefixes are kept: the cache, written off the caller's path.
    let deniedPrefixes: DeniedPrefixRecorder?
    let address: EndpointAddress
    let decoder: any PageDecoder
    private let onlineState: OnlineState
    private let activity = ListenerSlot<RequestActivity>()
    private let fallback: OfflineFallback
    private let cachePolicy: CachePolicy
    private let retryLoop: RetryLoop
    private let readAhead: ReadAhead
    private let tracer: Tracer
    private let tracing: CallTracing

    /// Creates a client.
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` for a base URL that is not http(s) or
    ///   for limits that are zero or negative; ``CatFactsError/internal(_:)`` on Linux when
    ///   `/proc` is not mounted (``ProcFilesystem``).
    @_optimize(size)
    public init(options: ClientOptions = ClientOptions(), transport: (any HTTPTransport)? = nil,
                decoder: any PageDecoder = ScanningPageDecoder()) throws(CatFactsError) {
        // Without /proc, libdispatch would stop the host process a second into its calls.
        if let missing = ProcFilesystem.missing() { throw .internal(missing) }
        try options.validate()
        self.options = options
        let address = EndpointAddress(baseURL: try options.validatedBaseURL())
        self.address = address
        self.decoder = decoder
        let cap = options.effectiveCacheMaxBytes
        let store = cap > 0 ? try ResponseStore(path: options.cachePath, maxBytes: cap) : nil
        self.store = store
        deniedPrefixes = store.map(DeniedPrefixRecorder.init(store:))
        metrics = MetricsRecorder(store: store)
        let transport = transport ?? CurlTransport(maxConnections: options.maxConnections,
                                                   certificates: CertificateAuthorities.choose(option: options.caFile,
                                                                                               environment: ProcessEnvironment.current()))
        let proxies = ProxyRule(option: options.proxy)
        let probe = Self.probe(address: address, transport: transport, options: options, proxies: proxies)
        onlineState = OnlineState(monitor: OfflineMonitor(threshold: options.offlineAfterFailures, cooldown: options.offlineCooldown),
                                  metrics: metrics, probeInterval: options.probeInterval, probe: probe)
        let sender = RequestSender(address: address, transport: transport, metrics: metrics, onlineState: onlineState,
                                   userAgent: options.userAgent, proxies: proxies, activity: activity)
        retryLoop = RetryLoop(sender: sender, policy: options.retry, limits: options.limits,
                              deadlineOption: options.deadline, onlineState: onlineState)
        cachePolicy = CachePolicy(store: store, origin: CacheKey.origin(of: address.baseURL), ttl: options.cacheTTL,
                                  metrics: metrics)
        fallback = OfflineFallback(enabled: options.offlineFallback, deadline: options.deadline)
        readAhead = ReadAhead(depth: options.readAhead)
        tracer = try Self.tracer(options: options, address: address, proxies: proxies, metrics: metrics)
        tracing = CallTracing(tracer: tracer)
    }

    /// Flushes what the exporter holds (bounded, see ``close()``) and stops its thread.
    deinit {
        tracer.close()
    }

    /// Sends what the OTLP exporter still holds, within 2 s (or the export timeout if smaller)
    /// whatever the collector does, and stops it; calls still work after it but are no longer
    /// exported. Does nothing when the client does not export. `cf_client_close` calls it.
    public func close() {
        tracer.close()
    }

    /// Sets or, with `nil`, clears the host's W3C trace context: calls that start after it
    /// carry its trace id, and their call spans have its parent id as their parent.
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` naming what is wrong with a malformed value
    ///   (length, not lowercase hex, all-zero ids, version ff); the trace parent is unchanged then.
    public func setTraceParent(_ traceparent: String?) throws(CatFactsError) {
        try setTraceContext(traceparent, state: nil)
    }

    /// Sets or, with `nil`, clears the host's W3C trace context with its `tracestate`
    /// (`nil` or empty: none), carried on every request and exported span of the calls
    /// that start after it. An unsampled parent (flags `00`) is sent on as such, and the
    /// calls' spans are not exported.
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` as ``setTraceParent(_:)``, or for a
    ///   tracestate that is too long or not printable ASCII; the context is unchanged then.
    public func setTraceContext(_ traceparent: String?, state: String?) throws(CatFactsError) {
        tracer.traceContext = try traceparent.map { text throws(CatFactsError) in try TraceContext(traceparent: text, tracestate: state) }
    }

    /// The host's trace context set by ``setTraceParent(_:)``, if any.
    public var traceParent: TraceParent? { tracer.traceContext?.parent }

    /// Tells this client's calls apart in a thread's trace context (`cf_client_set_trace_context`).
    package var traceSerial: Int { tracer.serial }

    /// What went wrong with the cache without failing a call (a corrupt file moved aside,
    /// a write that failed), oldest first.
    public var cacheWarnings: [String] { store?.warnings.all ?? [] }

    /// Whether the client is online (see ``MetricsRecorder/online``).
    public var isOnline: Bool { !onlineState.isOffline }

    /// Sets or, with `nil`, removes the listener told `false` when the client turns offline
    /// and `true` when it comes back. It runs on the thread that saw the change, outside
    /// every lock of the client.
    public func setOnlineListener(_ listener: (@Sendable (Bool) -> Void)?) {
        onlineState.listener.set(listener)
    }

    /// Removes the online listener and waits until no other thread is inside a call of it,
    /// so whatever it uses may be freed (`cf_client_close`).
    public func removeOnlineListenerAndWait() {
        onlineState.listener.clear()
    }

    /// Sets or, with `nil`, removes the listener told of each request as it goes out and as
    /// it ends (``RequestActivity``), on the thread sending it.
    public func setActivityListener(_ listener: (@Sendable (RequestActivity) -> Void)?) {
        activity.set(listener)
    }

    /// A page of breeds (`GET /breeds`).
    ///
    /// Calls for pages in order (p, then p+1) are read ahead (``ClientOptions/readAhead``).
    ///
    /// - Parameters:
    ///   - page: from 1; a page past the end is empty, not an error.
    ///   - limit: items per page; `nil` is the server's default. The server may cap it:
    ///     the page's `perPage` says what it applied.
    public func breeds(page: Int = 1, limit: Int? = nil) async throws(CatFactsError) -> Page<Breed> {
        try await readAhead.page(page, of: ReadAhead.Stream(endpoint: .breeds, limit: limit, maxLength: nil)) {
            [self] number async throws(CatFactsError) in try await breedsPage(number, limit: limit)
        }
    }

    /// A page of facts (`GET /facts`), only those no longer than `maxLength` when given.
    /// Calls for pages in order are read ahead, as for ``breeds(page:limit:)``.
    public func facts(page: Int = 1, limit: Int? = nil, maxLength: Int? = nil) async throws(CatFactsError) -> Page<Fact> {
        try await readAhead.page(page, of: ReadAhead.Stream(endpoint: .facts, limit: limit, maxLength: maxLength)) {
            [self] number async throws(CatFactsError) in try await factsPage(number, limit: limit, maxLength: maxLength)
        }
    }

    /// ``breeds(page:limit:)`` without read-ahead: for the paged lists, which prefetch by
    /// their own window, and for read-ahead itself.
    func breedsPage(_ page: Int, limit: Int?) async throws(CatFactsError) -> Page<Breed> {
        let result = try await tracing.run(.breeds) { () async throws(CatFactsError) in
            try await fallback.run { () async throws(CatFactsError) in
                try await fetchBreeds(page: page, limit: limit)
            } offline: {
                BundledCatalog.page(of: BundledCatalog.breeds, page: page, limit: limit ?? Self.offlinePageSize)
            }
        }
        // A decoded page is filed by name only if a lookup needs it; values given (the bundled
        // catalog's) are filed now, until the lookup holds all it may.
        if let arena = result.arena {
            knownBreeds.add(arena)
        } else if !knownBreeds.isFull {
            knownBreeds.add(result.items)
        }
        return result
    }

    /// ``facts(page:limit:maxLength:)`` without read-ahead.
    func factsPage(_ page: Int, limit: Int?, maxLength: Int?) async throws(CatFactsError) -> Page<Fact> {
        try await tracing.run(.facts) { () async throws(CatFactsError) in
            try await fallback.run { () async throws(CatFactsError) in
                try await fetchFacts(page: page, limit: limit, maxLength: maxLength)
            } offline: {
                BundledCatalog.page(of: BundledCatalog.facts(maxLength: maxLength), page: page, limit: limit ?? Self.offlinePageSize)
            }
        }
    }

    /// A random fact (`GET /fact`), no longer than `maxLength` when given. Never cached.
    public func randomFact(maxLength: Int? = nil) async throws(CatFactsError) -> Fact {
        let query = try EndpointAddress.query(page: nil, limit: nil, maxLength: maxLength)
        return try await tracing.run(.fact) { () async throws(CatFactsError) in
            try await fallback.run { () async throws(CatFactsError) in
                let outcome = try await retryLoop.fetch(.fact, query: query, conditional: nil) { body throws(DecodeFailure) in
                    try decoder.decodeObject(Fact.self, from: body)
                }
                guard case .fresh(let fact, _) = outcome else { throw .internal("a 304 answered a request without validators") }
                return fact
            } offline: { () throws(CatFactsError) in
                guard let fact = BundledCatalog.facts(maxLength: maxLength).randomElement() else {
                    throw .offline("the server cannot be reached, and no bundled fact fits max_length \(maxLength ?? 0)")
                }
                return fact
            }
        }
    }

    /// Runs `body` as one call: under the call's deadline, bound once (``CallDeadline``).
    func asOneCall<T>(_ body: () async throws(CatFactsError) -> T) async throws(CatFactsError) -> T {
        try await CallDeadline.bound(options.deadline, body)
    }

    /// The real service's default page size, used for offline pages asked without a limit.
    static let offlinePageSize = 25

    private func fetchPage<Item: Decodable & Sendable>(
        _ type: Item.Type, from endpoint: Endpoint, page: Int, limit: Int?, maxLength: Int?
    ) async throws(CatFactsError) -> Page<Item> {
        let query = try EndpointAddress.query(page: page, limit: limit, maxLength: maxLength)
        let decoder = self.decoder
        let decode = { (body: borrowing [UInt8]) throws(DecodeFailure) -> PageBody<Item> in
            try decoder.decodePage(Item.self, from: body).validated()
        }
        let (body, source, fetchedAt) = try await cachePolicy.fetch(endpoint, query: query, decode: decode) {
            conditional async throws(CatFactsError) in
            try await retryLoop.fetch(endpoint, query: query, conditional: conditional, decode: decode)
        }
        return Page(number: body.currentPage, lastPage: body.lastPage, perPage: body.perPage,
                    total: body.total, items: body.items, source: source, fetchedAt: fetchedAt)
    }

    /// A page of breeds decoded into one buffer (``ScanningPageDecoder/decodeBreedArena(from:)``),
    /// its values made only if asked for; through ``fetchPage(_:from:page:limit:maxLength:)``
    /// when the client was given another decoder.
    private func fetchBreeds(page: Int, limit: Int?) async throws(CatFactsError) -> Page<Breed> {
        let fetched = try await fetchArena(.breeds, page: page, limit: limit, maxLength: nil) { scanning, body throws(DecodeFailure) in
            try scanning.decodeBreedArena(from: body).validated()
        }
        guard let (body, source, fetchedAt) = fetched else {
            return try await fetchPage(Breed.self, from: .breeds, page: page, limit: limit, maxLength: nil)
        }
        return Page(number: body.currentPage, lastPage: body.lastPage, perPage: body.perPage, total: body.total,
                    arena: body.arena, source: source, fetchedAt: fetchedAt)
    }

    /// A page of facts decoded into one buffer (``ScanningPageDecoder/decodeFactArena(from:)``),
    /// as ``fetchBreeds(page:limit:)`` fetches breeds.
    private func fetchFacts(page: Int, limit: Int?, maxLength: Int?) async throws(CatFactsError) -> Page<Fact> {
        let fetched = try await fetchArena(.facts, page: page, limit: limit, maxLength: maxLength) { scanning, body throws(DecodeFailure) in
            try scanning.decodeFactArena(from: body).validated()
        }
        guard let (body, source, fetchedAt) = fetched else {
            return try await fetchPage(Fact.self, from: .facts, page: page, limit: limit, maxLength: maxLength)
        }
        return Page(number: body.currentPage, lastPage: body.lastPage, perPage: body.perPage, total: body.total,
                    arena: body.arena, source: source, fetchedAt: fetchedAt)
    }

    /// A page decoded by `decode` with the scanning decoder, through the cache and the retry
    /// loop, with where it came from and when; `nil` when the client was given another decoder.
    private func fetchArena<Decoded: Sendable>(
        _ endpoint: Endpoint, page: Int, limit: Int?, maxLength: Int?,
        decode: @escaping @Sendable (ScanningPageDecoder, borrowing [UInt8]) throws(DecodeFailure) -> Decoded
    ) async throws(CatFactsError) -> (Decoded, Source, Timestamp)? {
        guard let scanning = decoder as? ScanningPageDecoder else { return nil }
        let query = try EndpointAddress.query(page: page, limit: limit, maxLength: maxLength)
        let decodeBody = { (body: borrowing [UInt8]) throws(DecodeFailure) -> Decoded in try decode(scanning, body) }
        return try await cachePolicy.fetch(endpoint, query: query, decode: decodeBody) { conditional async throws(CatFactsError) in
            try await retryLoop.fetch(endpoint, query: query, conditional: conditional, decode: decodeBody)
        }
    }

    /// The tracer for `options`: with an exporter when they or the environment name a
    /// collector (``ExportSettings``), whose figures the metrics' `export` block shows.
    @_optimize(size)
    private static func tracer(options: ClientOptions, address: EndpointAddress, proxies: ProxyRule,
                               metrics: MetricsRecorder) throws(CatFactsError) -> Tracer {
        let (settings, warnings) = try ExportSettings.resolve(option: options.otlpEndpoint,
                                                              environment: ProcessEnvironment.current())
        let server = ServerIdentity(baseURL: address.baseURL)
        // Weakly: the recorder reads the exporter's figures, so a strong hold would be a cycle.
        let started = settings.flatMap { settings in
            ExporterRegistry.attach(settings: settings, proxies: proxies, server: server) { [weak metrics] in metrics?.endpoints() ?? [] }
        }
        var refused = warnings
        if settings != nil, started == nil { refused.append("export is off: the system refused a thread for it") }
        metrics.setExportState { [refused] in
            started?.exportState() ?? (refused.isEmpty ? nil : ExportState(endpoint: nil, warnings: refused))
        }
        return Tracer(exporter: started, server: server)
    }

    /// The offline probe: one cheap request (`GET /fact?max_length=1`), not counted in the
    /// metrics nor told to the activity listener; any response means the server is back.
    private static func probe(address: EndpointAddress, transport: any HTTPTransport, options: ClientOptions,
                              proxies: ProxyRule) -> @Sendable () async -> Bool {
        let url = address.url(.fact, query: [QueryItem(name: "max_length", value: "1")])
        let request = HTTPRequest(url: url, headers: ["User-Agent": options.userAgent, "Accept": "application/json"],
                                  proxy: proxies.proxy(for: url))
        var limits = options.limits
        limits.connectTimeout = min(limits.connectTimeout, .seconds(5))
        limits.totalTimeout = min(limits.totalTimeout, .seconds(5))
        return { [limits] in
            do {
                _ = try await transport.send(request, limits: limits)
                return true
            } catch {
                return false
            }
        }
    }
}
