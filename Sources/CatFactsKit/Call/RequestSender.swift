import Synchronization

/// Sends one GET and makes it a typed outcome: conditional when given a cached response with
/// validators, timed, error statuses turned into errors, decoded, recorded in the metrics,
/// and its reaching the server (or not) told to the online state.
final class RequestSender: Sendable {
    let address: EndpointAddress
    let transport: any HTTPTransport
    let metrics: MetricsRecorder
    let onlineState: OnlineState
    let userAgent: String
    let proxies: ProxyRule
    let activity: ListenerSlot<RequestActivity>
    private let nextID = Atomic<Int>(0)

    init(address: EndpointAddress, transport: any HTTPTransport, metrics: MetricsRecorder, onlineState: OnlineState,
         userAgent: String, proxies: ProxyRule, activity: ListenerSlot<RequestActivity>) {
        self.address = address
        self.transport = transport
        self.metrics = metrics
        self.onlineState = onlineState
        self.userAgent = userAgent
        self.proxies = proxies
        self.activity = activity
    }

    /// The request the client sends for `url`: its headers and its proxy, and the attempt's
    /// W3C `traceparent` when tracing is on.
    func request(for url: WebAddress, conditional: CachedResponse? = nil, traceparent: String? = nil,
                 tracestate: String? = nil) -> HTTPRequest {
        var headers = ["User-Agent": userAgent, "Accept": "application/json"]
        headers.merge(conditional?.conditionalHeaders ?? [:]) { _, new in new }
        if let traceparent { headers["traceparent"] = traceparent }
        if traceparent != nil, let tracestate { headers["tracestate"] = tracestate }
        return HTTPRequest(url: url, headers: headers, proxy: proxies.proxy(for: url))
    }

    func send<Value>(_ endpoint: Endpoint, query: [QueryItem], conditional: CachedResponse?, limits: TransportLimits,
                     decode: (borrowing [UInt8]) throws(DecodeFailure) -> Value) async throws(CatFactsError) -> FetchOutcome<Value> {
        // A blocking call starts on its caller's thread, where no listener may run: the
        // request, which listeners hear of, goes to the pool first.
        await CallerThread.leave()
        let url = address.url(endpoint, query: query)
        let id = nextID.add(1, ordering: .relaxed).newValue
        activity.call([RequestActivity(id: id, url: url, phase: .began)])
        // The attempt's span, when the call is traced: its id goes out in the traceparent.
        let trace = CallTrace.current
        let attempt = trace?.beginAttempt()
        let start = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await transport.send(request(for: url, conditional: conditional, traceparent: attempt?.traceparent,
                                                        tracestate: trace?.traceState), limits: limits)
        } catch {
            metrics.recordRequest(endpoint: endpoint.path, elapsed: ContinuousClock.now - start, bytes: 0,
                                  gotResponse: false, error: error)
            if let attempt { trace?.end(attempt.spanID, status: nil, error: error, seconds: (ContinuousClock.now - start).seconds) }
            activity.call([RequestActivity(id: id, url: url, phase: .ended(error))])
            throw error
        }
        let elapsed = ContinuousClock.now - start
        activity.call([RequestActivity(id: id, url: url, phase: .ended(nil))])
        // Any response, whatever its status: the server is there.
        onlineState.recordResponse()
        if response.status == 304, conditional?.hasValidators == true {
            // A cache hit too (counted by the cache policy): the request is counted, as it was sent.
            metrics.recordRequest(endpoint: endpoint.path, elapsed: elapsed, bytes: response.body.count,
                                  gotResponse: true, error: nil)
            if let attempt { trace?.end(attempt.spanID, status: response.status, error: nil, seconds: elapsed.seconds) }
            return .notModified
        }
        let result: Result<FetchOutcome<Value>, CatFactsError>
        if let failure = ResponseCheck.failure(for: response, url: url.absoluteString) {
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
        if let attempt { trace?.end(attempt.spanID, status: response.status, error: error, seconds: elapsed.seconds) }
        return try result.get()
    }
}
