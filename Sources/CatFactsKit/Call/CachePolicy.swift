/// How a page call uses the cache: a stored page younger than the TTL answers without a
/// request; an older one is revalidated (a 304 answers from it); a new body is stored; and
/// when the server cannot answer (``CatFactsError/allowsStaleAnswer``), the stored page
/// answers whatever its age, labelled ``Source/cache`` with its real fetch time. Cache
/// failures never fail the call: they become the store's warnings.
struct CachePolicy: Sendable {
    /// `nil`: no cache (``ClientOptions/cacheMaxBytes`` 0); every call goes to the network.
    let store: ResponseStore?
    /// The server part of the keys (``CacheKey/origin(of:)``).
    let origin: String
    let ttl: Duration
    let metrics: MetricsRecorder
    /// The pages held decoded in front of the store (``DecodedPages``); `nil` with no store.
    let decoded: DecodedPages?

    init(store: ResponseStore?, origin: String, ttl: Duration, metrics: MetricsRecorder) {
        self.store = store
        self.origin = origin
        self.ttl = ttl
        self.metrics = metrics
        decoded = store?.decoded
    }

    /// `decode`'s value for `endpoint` with `query`, its source and when it was fetched;
    /// `network` sends the request (conditional on the cached response it is given) and
    /// decodes its body with the same `decode`.
    @_optimize(size)
    func fetch<Value>(
        _ endpoint: Endpoint, query: [QueryItem],
        decode: (borrowing [UInt8]) throws(DecodeFailure) -> Value,
        network: (CachedResponse?) async throws(CatFactsError) -> FetchOutcome<Value>
    ) async throws(CatFactsError) -> (Value, Source, Timestamp) {
        guard let store else {
            let fetchedAt = Timestamp.now
            guard case .fresh(let value, _) = try await network(nil) else {
                throw .internal("a 304 answered a request without validators")
            }
            return (value, .network, fetchedAt)
        }
        let key = CacheKey(origin: origin, endpoint: endpoint, query: query)
        let name = key.description
        // A page held decoded and younger than the TTL answers with no read, decode or write.
        if let (value, fetchedAt) = decoded?.lookup(name, as: Value.self), Timestamp.now.timeIntervalSince(fetchedAt) < ttl.seconds {
            store.noteUse(key)
            metrics.recordCacheHit(endpoint: endpoint.path)
            CallTrace.current?.noteSource(.cache)
            return (value, .cache, fetchedAt)
        }
        // The file keeps pages as decoded beside their bodies: a row in this library's layout
        // is copied, not decoded (and its body not read).
        let archive = store.path == nil ? nil : Value.self as? any ArchivedDecoded.Type
        let restored: (CachedResponse, Value)? = archive.flatMap { archive in
            let found = store.warnOnFailure { () throws(CatFactsError) in
                try store.lookup(key, decoded: archive.format) { bytes -> (any ArchivedDecoded)? in restore(archive, from: bytes) }
            } ?? nil
            return found.flatMap { response, value in (value as? Value).map { (response, $0) } }
        }
        let cached = restored != nil ? nil : store.warnOnFailure { () throws(CatFactsError) in try store.lookup(key) } ?? nil
        // A stored body that no longer decodes (an older library wrote it) is dropped.
        let stored: (CachedResponse, Value)? = restored ?? cached.flatMap { cached in
            do throws(DecodeFailure) {
                return (cached, try decode(cached.body))
            } catch {
                store.warnOnFailure { () throws(CatFactsError) in try store.remove(key) }
                decoded?.remove(name)
                return nil
            }
        }
        func answerFromCache(fetchedAt: Timestamp? = nil) -> (Value, Source, Timestamp)? {
            guard let (cached, value) = stored else { return nil }
            if let fetchedAt {  // a 304 renewed it: written at once, as a save is
                store.warnOnFailure { () throws(CatFactsError) in try store.touch(key, fetchedAt: fetchedAt) }
            } else {
                store.noteUse(key)
            }
            decoded?.keep(value, under: name, fetchedAt: fetchedAt ?? cached.fetchedAt)
            metrics.recordCacheHit(endpoint: endpoint.path)
            CallTrace.current?.noteSource(.cache)
            return (value, .cache, fetchedAt ?? cached.fetchedAt)
        }
        if let (cached, _) = stored, Timestamp.now.timeIntervalSince(cached.fetchedAt) < ttl.seconds,
           let answer = answerFromCache() {
            return answer
        }
        let fetchedAt = Timestamp.now
        do throws(CatFactsError) {
            switch try await network(stored?.0) {
            case .fresh(let value, let response):
                store.warnOnFailure { () throws(CatFactsError) in
                    // A file keeps the page as decoded too; a memory store has it in `decoded`.
                    let kept = archive != nil ? (value as? any ArchivedDecoded).map { (type(of: $0).format, $0.archived) } : nil
                    try store.save(key, body: response.body, fetchedAt: fetchedAt,
                                   etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
                                   decoded: kept)
                }
                decoded?.keep(value, under: name, fetchedAt: fetchedAt)
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
}
