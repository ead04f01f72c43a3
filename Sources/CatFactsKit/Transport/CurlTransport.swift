/// ``HTTPTransport`` over libcurl's multi interface: one thread per transport runs every
/// transfer (``CurlEngine``), connections are kept and reused between requests, and the
/// body is collected straight into the response's bytes.
///
/// It replaced `URLSession` (FoundationNetworking), which on Linux took about three times
/// curl's time per page and leaked memory on every request, and whose library alone took
/// most of the time `dlopen("libCatFacts.so")` took (see BENCHMARKS.md). http and https,
/// redirects followed (at most 5, http and https only), gzip and brotli accepted, the
/// CA certificates of the `ca_file` option or the environment, else the system's.
public final class CurlTransport: HTTPTransport {
    /// Made by the first request: a process that never goes to the network (answers from
    /// the cache, the bundled catalog) never loads libcurl or starts the thread.
    private let engine = Locked<CurlEngine?>(nil)
    /// The most connections open to one host at once (``ClientOptions/maxConnections``).
    private let maxConnections: Int
    /// The CA certificates https servers are checked against.
    private let certificates: CertificateAuthorities

    /// A transport keeping at most `maxConnections` connections to each host; a number
    /// outside 1...``ClientOptions/maxConnectionsLimit`` is brought into it (libcurl reads 0
    /// as no limit). ``CatFactsClient`` passes its ``ClientOptions/maxConnections``, checked.
    /// `certificates`: the CA certificates https servers are checked against (``ClientOptions/caFile``
    /// and the environment, as ``CertificateAuthorities/choose(option:environment:)`` reads them).
    public init(maxConnections: Int = ClientOptions.defaultMaxConnections,
                certificates: CertificateAuthorities = .system) {
        self.maxConnections = min(max(1, maxConnections), ClientOptions.maxConnectionsLimit)
        self.certificates = certificates
    }

    deinit {
        if let engine = engine.withLock({ $0 }), engine.isInThisProcess { engine.stop() }
    }

    public func send(_ request: HTTPRequest, limits: TransportLimits) async throws(CatFactsError) -> HTTPResponse {
        let url = request.url.absoluteString
        let engine = try engine.withLock { engine throws(CatFactsError) -> CurlEngine in
            // An engine made before a fork() has its thread in the parent: a new one here.
            if let engine, engine.isInThisProcess { return engine }
            let started = try CurlEngine(for: url, maxConnections: maxConnections)
            engine = started
            return started
        }
        let exchange = CurlExchange(request: request, limits: limits, certificates: certificates)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.begin(continuation)
                engine.submit(exchange)
            }
        } onCancel: {
            engine.cancel(exchange)
        }
        return try result.get()
    }
}
