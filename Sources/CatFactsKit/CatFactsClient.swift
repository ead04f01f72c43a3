#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The Cat Facts API, with every request measured and every page cached.
///
/// Pages (`/breeds`, `/facts`) go into a cache (``ResponseStore``: memory, or the file
/// ``ClientOptions/cachePath``). A cached page younger than ``ClientOptions/cacheTTL`` answers
/// without a request; an older one is revalidated (a 304 answers from the cache); and when the
/// server cannot answer, the cached page does, whatever its age, labelled ``Source/cache`` with
/// its real `fetchedAt`. After ``ClientOptions/offlineAfterFailures`` requests in a row got no
/// response, the client is offline: calls answer from the cache or the bundled catalog at
/// once, until a probe finds the server again. Random facts (`/fact`) are never cached.
///
/// ```swift
/// let client = try CatFactsClient(options: ClientOptions(baseURL: "http://127.0.0.1:8106"))
/// let page = try await client.breeds(page: 1, limit: 10)
/// print(page.items.map(\.name), client.metrics.snapshot().json())
/// ```
/// Safe to share between tasks and threads.
public final class CatFactsClient: Sendable {
    /// The options it was created with.
    public let options: ClientOptions
    /// Every request's count and time, per endpoint.
    public let metrics = MetricsRecorder()
    /// The base URL, validated.
    public let baseURL: URL
    /// The blocking calls a C host has in progress on this client (``CallsInProgress``).
    package let callsInProgress = CallsInProgress()
    /// The server part of this client's cache keys (``CacheKey/origin(of:)``).
    private let cacheOrigin: String
    private let transport: any HTTPTransport
    private let decoder: any PageDecoder
    private let knownBreeds = KnownBreeds()
    /// Every breed, once a query has needed them all.
    let catalogView = Mutex<BreedCatalogView?>(nil)
    /// The page cache; `nil` when ``ClientOptions/cacheMaxBytes`` is 0.
    public let store: ResponseStore?
    private let offline: OfflineMonitor
    private let onlineListener = ListenerSlot<Bool>()
    private let probeTask = Mutex<Task<Void, Never>?>(nil)
    /// The proxy variables of the environment when the client was made (``ProxyChoice``).
    private let proxyEnvironment: [String: String]

    /// Creates a client.
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` for a base URL that is not http(s) or
    ///   for limits that are zero or negative.
    public init(options: ClientOptions = ClientOptions(), transport: (any HTTPTransport)? = nil,
                decoder: any PageDecoder = ScanningPageDecoder()) throws(CatFactsError) {
        try options.validate()
        self.options = options
        self.baseURL = try options.validatedBaseURL()
        self.cacheOrigin = CacheKey.origin(of: baseURL)
        self.transport = transport ?? CurlTransport()
        self.decoder = decoder
        let cap = options.effectiveCacheMaxBytes
        self.store = cap > 0 ? try ResponseStore(path: options.cachePath, maxBytes: cap) : nil
        self.offline = OfflineMonitor(threshold: options.offlineAfterFailures, cooldown: options.offlineCooldown)
        self.proxyEnvironment = ProcessInfo.processInfo.environment.filter { ProxyChoice.variables.contains($0.key) }
    }

    deinit {
        probeTask.withLock { $0?.cancel() }
    }

    /// What went wrong with the cache without failing a call (a corrupt file moved aside,
    /// a write that failed), oldest first.
    public var cacheWarnings: [String] { store?.warnings.all ?? [] }

    /// Whether the client is online (see ``MetricsRecorder/online``).
    public var isOnline: Bool { !offline.isOffline }

    /// Sets or, with `nil`, removes the listener told `false` when the client turns offline
    /// and `true` when it comes back. It runs on the thread that saw the change, outside
    /// every lock of the client.
    public func setOnlineListener(_ listener: (@Sendable (Bool) -> Void)?) {
        onlineListener.set(listener)
    }

    /// Removes the online listener and waits until no other thread is inside a call of it,
    /// so whatever it uses may be freed (`cf_client_close`).
    public func removeOnlineListenerAndWait() {
        onlineListener.clear()
    }

    /// A page of breeds (`GET /breeds`).
    ///
    /// - Parameters:
    ///   - page: from 1; a page past the end is empty, not an error.
    ///   - limit: items per page; `nil` is the server's default. The server may cap it:
    ///     the page's `perPage` says what it applied.
    public func breeds(page: Int = 1, limit: Int? = nil) async throws(CatFactsError) -> Page<Breed> {
        let result = try await withFallback { () async throws(CatFactsError) in
            try await fetchPage(Breed.self, from: .breeds, page: page, limit: limit, maxLength: nil)
        } offline: {
            BundledCatalog.page(of: BundledCatalog.breeds, page: page, limit: limit ?? Self.offlinePageSize)
        }
        knownBreeds.add(result.items)
        return result
    }

    /// A page of facts (`GET /facts`), only those no longer than `maxLength` when given.
    public func facts(page: Int = 1, limit: Int? = nil, maxLength: Int? = nil) async throws(CatFactsError) -> Page<Fact> {
        try await withFallback { () async throws(CatFactsError) in
            try await fetchPage(Fact.self, from: .facts, page: page, limit: limit, maxLength: maxLength)
        } offline: {
            BundledCatalog.page(of: BundledCatalog.facts(maxLength: maxLength), page: page, limit: limit ?? Self.offlinePageSize)
        }
    }

    /// A random fact (`GET /fact`), no longer than `maxLength` when given.
    public func randomFact(maxLength: Int? = nil) async throws(CatFactsError) -> Fact {
        let query = try Self.query(page: nil, limit: nil, maxLength: maxLength)
        return try await withFallback { () async throws(CatFactsError) in
            let outcome = try await fetch(.fact, query: query, conditional: nil) { body throws(DecodeFailure) in
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

    /// The breed named `name`, matched case-insensitively, from the breeds this client has
    /// seen, or else by walking the breed list until it turns up (the API has no detail
    /// endpoint).
    ///
    /// - Throws: ``CatFactsError/notFound(_:)`` when no breed has that name;
    ///   ``CatFactsError/argument(_:)`` for an empty name; the errors of ``breeds(page:limit:)``.
    public func breed(named name: String) async throws(CatFactsError) -> Breed {
        let key = KnownBreeds.key(name)
        guard !key.isEmpty else { throw .argument("the breed name is empty") }
        if let known = knownBreeds.breed(forKey: key) {
            metrics.recordCacheHit(endpoint: Endpoint.breeds.path)
            return known
        }
        let notFound = CatFactsError.notFound("no breed is named '\(Breed.presence(name) ?? name)'")
        if knownBreeds.isComplete {
            metrics.recordCacheHit(endpoint: Endpoint.breeds.path)
            throw notFound
        }
        // The walk is one call: its pages share the deadline.
        return try await withDeadline { () async throws(CatFactsError) in
            var number = 1
            while true {
                let page = try await breeds(page: number, limit: Self.walkPageSize)
                let found = page.items.first { KnownBreeds.key($0.name) == key }
                let last = page.items.isEmpty || number >= page.lastPage
                if last, page.source == .network { knownBreeds.markComplete() }
                if let found { return found }
                if last { throw notFound }
                number += 1
            }
        }
    }

    /// Page size when walking the whole breed list (the server caps it if it must).
    static let walkPageSize = 1000
    /// The real service's default page size, used for offline pages asked without a limit.
    static let offlinePageSize = 25

    /// Runs `online`; when the server cannot be reached and the fallback is on, answers
    /// with `offline` instead.
    private func withFallback<Value>(
        _ online: () async throws(CatFactsError) -> Value,
        offline: () throws(CatFactsError) -> Value
    ) async throws(CatFactsError) -> Value {
        do {
            return try await withDeadline { () async throws(CatFactsError) in try await online() }
        } catch {
            switch error {
            case .network, .timeout, .deadlinePassed, .offline:
                guard options.offlineFallback else { throw error }
                return try offline()
            default:
                throw error
            }
        }
    }

    private func fetchPage<Item: Decodable & Sendable>(
        _ type: Item.Type, from endpoint: Endpoint, page: Int, limit: Int?, maxLength: Int?
    ) async throws(CatFactsError) -> Page<Item> {
        let query = try Self.query(page: page, limit: limit, maxLength: maxLength)
        let (body, source, fetchedAt) = try await fetchCached(endpoint, query: query) { body throws(DecodeFailure) in
            try Self.checked(decoder.decodePage(Item.self, from: body))
        }
        return Page(number: body.currentPage, lastPage: body.lastPage, perPage: body.perPage,
                    total: body.total, items: body.items, source: source, fetchedAt: fetchedAt)
    }

    /// A GET answered through the cache: fresh within the TTL without a request, else
    /// revalidated or fetched (and stored), else — when the server cannot answer — the
    /// cached body whatever its age. Cache failures never fail the call (they become warnings).
    private func fetchCached<Value>(
        _ endpoint: Endpoint, query: [URLQueryItem],
        decode: (borrowing [UInt8]) throws(DecodeFailure) -> Value
    ) async throws(CatFactsError) -> (Value, Source, Date) {
        guard let store else {
            let fetchedAt = Date.now
            guard case .fresh(let value, _) = try await fetch(endpoint, query: query, conditional: nil, decode: decode) else {
                throw .internal("a 304 answered a request without validators")
            }
            return (value, .network, fetchedAt)
        }
        let key = CacheKey(origin: cacheOrigin, endpoint: endpoint, query: query)
        let cached = store.warnOnFailure { () throws(CatFactsError) in try store.lookup(key) } ?? nil
        // A stored body that no longer decodes (an older library wrote it) is dropped.
        let stored: (CachedResponse, Value)? = cached.flatMap { cached in
            do throws(DecodeFailure) {
                return (cached, try decode(cached.body))
            } catch {
                store.warnOnFailure { () throws(CatFactsError) in try store.remove(key) }
                return nil
            }
        }
        func answerFromCache(fetchedAt: Date? = nil) -> (Value, Source, Date)? {
            guard let (cached, value) = stored else { return nil }
            store.warnOnFailure { () throws(CatFactsError) in try store.touch(key, fetchedAt: fetchedAt) }
            metrics.recordCacheHit(endpoint: endpoint.path)
            return (value, .cache, fetchedAt ?? cached.fetchedAt)
        }
        if let (cached, _) = stored, Date.now.timeIntervalSince(cached.fetchedAt) < options.cacheTTL.seconds,
           let answer = answerFromCache() {
            return answer
        }
        let fetchedAt = Date.now
        do throws(CatFactsError) {
            switch try await fetch(endpoint, query: query, conditional: stored?.0, decode: decode) {
            case .fresh(let value, let response):
                store.warnOnFailure { () throws(CatFactsError) in
                    try store.save(key, body: response.body, fetchedAt: fetchedAt,
                                   etag: response.header("ETag"), lastModified: response.header("Last-Modified"))
                }
                return (value, .network, fetchedAt)
            case .notModified:
                guard let answer = answerFromCache(fetchedAt: fetchedAt) else {
                    throw .internal("a 304 answered a request without validators")
                }
                return answer
            }
        } catch {
            if error.allowsStaleAnswer, let answer = answerFromCache() { return answer }
            throw error
        }
    }

    /// Rejects numbers no paginator sends, so callers can trust a page's arithmetic.
    private static func checked<Item>(_ body: PageBody<Item>) throws(DecodeFailure) -> PageBody<Item> {
        guard body.perPage > 0 else { throw DecodeFailure("'per_page' is \(body.perPage); expected 1 or more") }
        guard body.total >= 0, body.currentPage >= 1, body.lastPage >= 1 else {
            throw DecodeFailure("the page numbers are impossible (current_page \(body.currentPage), last_page \(body.lastPage), total \(body.total))")
        }
        guard body.items.count <= body.perPage else {
            throw DecodeFailure("'data' holds \(body.items.count) items, more than 'per_page' (\(body.perPage))")
        }
        return body
    }

    private static func query(page: Int?, limit: Int?, maxLength: Int?) throws(CatFactsError) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let page {
            guard page >= 1 else { throw .argument("page \(page): pages are numbered from 1") }
            items.append(URLQueryItem(name: "page", value: String(page)))
        }
        if let limit {
            guard limit >= 1 else { throw .argument("limit \(limit): a page holds at least 1 item") }
            items.append(URLQueryItem(name: "limit", value: String(limit)))
        }
        if let maxLength {
            guard maxLength >= 0 else { throw .argument("max_length \(maxLength) is negative (0 means no limit)") }
            if maxLength > 0 { items.append(URLQueryItem(name: "max_length", value: String(maxLength))) }
        }
        return items
    }

    /// Sends a GET, and again after a retryable failure, as the retry policy allows; while
    /// offline, fails at once with ``CatFactsError/offline(_:)`` instead.
    private func fetch<Value>(_ endpoint: Endpoint, query: [URLQueryItem], conditional: CachedResponse?,
                              decode: (borrowing [UInt8]) throws(DecodeFailure) -> Value) async throws(CatFactsError) -> FetchOutcome<Value> {
        var attempt = 0
        var random = SystemRandomNumberGenerator()
        let deadline = CallDeadline.current
        func passed(_ reason: String) -> CatFactsError {
            .deadlinePassed(milliseconds: Int(min(options.deadline?.milliseconds ?? 0, 9e18)), attempts: attempt, reason: reason,
                            url: ProxyChoice.redacted(url(for: endpoint, query: query).absoluteString))
        }
        while true {
            if offline.bypassesNetwork {
                throw .offline("\(options.offlineAfterFailures) calls in a row got no response from \(baseURL.absoluteString); "
                               + "trying again in \(Int(offline.remainingCooldown.seconds.rounded(.up))) s, or sooner if a probe reaches it")
            }
            // Each attempt gets what is left of the call's deadline, at most.
            var limits = options.limits
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { throw passed("no time was left for another attempt") }
                limits.totalTimeout = min(limits.totalTimeout, left)
                limits.connectTimeout = min(limits.connectTimeout, left)
            }
            do {
                CallReport.current?.countAttempt()
                attempt += 1
                return try await fetchOnce(endpoint, query: query, conditional: conditional, limits: limits, decode: decode)
            } catch {
                var error = error
                if let deadline, case .timeout = error, deadline - ContinuousClock.now < .milliseconds(20) {
                    error = passed("the last attempt had no answer yet")
                }
                let delay = options.retry.delay(after: error, attempt: attempt - 1, using: &random)
                let fitsTheDeadline = delay.map { delay in deadline.map { ContinuousClock.now + delay <= $0 } ?? true } ?? false
                guard let delay, fitsTheDeadline else {
                    // A call that got no response, retries and all, counts once towards going
                    // offline: one slow call must not put the client offline by itself.
                    switch error {
                    case .network, .timeout, .deadlinePassed: announce(offline.recordFailure())
                    default: break
                    }
                    guard let delay else { throw error }
                    // The wait the retry needs would pass the deadline: fail now, saying so.
                    let asked = error.retryAfter.map { "the server asked to retry after \(CatFactsError.format($0)) s" }
                        ?? "the next attempt, in \(CatFactsError.format(delay.seconds)) s, would come after it"
                    throw passed("\(asked) (\(error.description))")
                }
                metrics.recordRetry(endpoint: endpoint.path)
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw .cancelled
                }
            }
        }
    }

    /// Sends one GET (conditional when given a cached response with validators), times it,
    /// turns error statuses into errors, decodes, and records it all.
    private func fetchOnce<Value>(_ endpoint: Endpoint, query: [URLQueryItem], conditional: CachedResponse?,
                                  limits: TransportLimits,
                                  decode: (borrowing [UInt8]) throws(DecodeFailure) -> Value) async throws(CatFactsError) -> FetchOutcome<Value> {
        let url = self.url(for: endpoint, query: query)
        var headers = ["User-Agent": options.userAgent, "Accept": "application/json"]
        headers.merge(conditional?.conditionalHeaders ?? [:]) { _, new in new }
        let request = HTTPRequest(url: url, headers: headers, proxy: proxy(for: url))
        let start = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await transport.send(request, limits: limits)
        } catch {
            metrics.recordRequest(endpoint: endpoint.path, elapsed: ContinuousClock.now - start, bytes: 0,
                                  gotResponse: false, error: error)
            throw error
        }
        // Any response, whatever its status: the server is there.
        announce(offline.recordSuccess())
        let elapsed = ContinuousClock.now - start
        if response.status == 304, conditional?.hasValidators == true {
            // A cache hit too (counted by the caller): the request is counted, as it was sent.
            metrics.recordRequest(endpoint: endpoint.path, elapsed: elapsed, bytes: response.body.count,
                                  gotResponse: true, error: nil)
            return .notModified
        }
        let result: Result<FetchOutcome<Value>, CatFactsError>
        if let failure = Self.failure(for: response, url: url.absoluteString) {
            result = .failure(failure)
        } else {
            do throws(DecodeFailure) {
                result = .success(.fresh(try decode(response.body), response))
            } catch {
                result = .failure(.decode(error.description, url: url.absoluteString))
            }
        }
        let error: CatFactsError? = if case .failure(let e) = result { e } else { nil }
        metrics.recordRequest(endpoint: endpoint.path, elapsed: elapsed, bytes: response.body.count,
                              gotResponse: true, error: error)
        return try result.get()
    }

    /// Updates the metrics' online state and the listener after a change, and starts the probe.
    private func announce(_ transition: OfflineMonitor.Transition) {
        switch transition {
        case .none:
            return
        case .wentOffline:
            metrics.setOnline(false)
            startProbe()
            onlineListener.call([false])
        case .cameOnline:
            metrics.setOnline(true)
            onlineListener.call([true])
        }
    }

    /// Probes the server while offline: after 1 s, then twice as long each time, up to
    /// ``ClientOptions/probeInterval`` — soon after a short outage, cheaply during a long one.
    /// The task holds the client only weakly (and only during a probe), so it ends when the
    /// client is gone.
    private func startProbe() {
        let longest = options.probeInterval
        let task = Task.detached { [weak self] in
            var interval = min(Duration.seconds(1), longest)
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                guard let client = self, client.offline.isOffline else { return }
                await client.probe()
                interval = min(interval * 2, longest)
            }
        }
        probeTask.withLock { old in
            old?.cancel()
            old = task
        }
    }

    /// One cheap request (`GET /fact?max_length=1`), not counted in the metrics: any
    /// response means the server is back.
    private func probe() async {
        let url = self.url(for: .fact, query: [URLQueryItem(name: "max_length", value: "1")])
        var limits = options.limits
        limits.connectTimeout = min(limits.connectTimeout, .seconds(5))
        limits.totalTimeout = min(limits.totalTimeout, .seconds(5))
        let request = HTTPRequest(url: url, headers: ["User-Agent": options.userAgent, "Accept": "application/json"],
                                  proxy: proxy(for: url))
        do {
            _ = try await transport.send(request, limits: limits)
            announce(offline.recordSuccess())
        } catch {
            // Still unreachable: the cool-down is not extended by probes, only by calls.
        }
    }

    /// The proxy for a request to `url`: the option, else the environment as it was when the
    /// client was made.
    private func proxy(for url: URL) -> ProxyChoice {
        ProxyChoice.choose(scheme: url.scheme ?? "http", host: url.host ?? "", option: options.proxy,
                           environment: proxyEnvironment)
    }

    private func url(for endpoint: Endpoint, query: [URLQueryItem]) -> URL {
        let url = baseURL.appendingPathComponent(String(endpoint.path.dropFirst()))
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.queryItems = query
        return components.url ?? url
    }

    /// The error a non-2xx response stands for, with the server's own message when it sent one.
    static func failure(for response: HTTPResponse, url: String) -> CatFactsError? {
        switch response.status {
        case 200..<300:
            return nil
        case 429:
            return .rateLimited(retryAfter: RetryAfter.seconds(response.header("Retry-After")), url: url)
        default:
            return .http(status: response.status, message: serverMessage(response), url: url,
                         retryAfter: RetryAfter.seconds(response.header("Retry-After")))
        }
    }

    /// Laravel's `{"message": "..."}`, else a short plain-text body, else the status's reason phrase.
    private static func serverMessage(_ response: HTTPResponse) -> String {
        struct Message: Decodable { let message: String }
        if let message = try? JSONDecoder().decode(Message.self, from: Data(response.body)).message, !message.isEmpty {
            return message
        }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self).trimmed()
        if !text.isEmpty, !text.contains("<"), response.body.count <= 200 { return text }
        return response.reasonPhrase
    }
}
