import CCurl
import Foundation

/// ``HTTPTransport`` over libcurl's multi interface: one thread per transport runs every
/// transfer (``CurlEngine``), connections are kept and reused between requests, and the
/// body is collected straight into the response's bytes.
///
/// It replaced `URLSession` (FoundationNetworking), which on Linux took about three times
/// curl's time per page and leaked memory on every request, and whose library alone took
/// most of the time `dlopen("libCatFacts.so")` took (see BENCHMARKS.md). http and https,
/// redirects followed (at most 5, http and https only), gzip and brotli accepted, the
/// system's CA certificates.
public final class CurlTransport: HTTPTransport {
    private let engine: CurlEngine

    /// Starts the transport's thread.
    ///
    /// - Throws: ``CatFactsError/internal(_:)`` when libcurl cannot be set up.
    public init() throws(CatFactsError) {
        engine = try CurlEngine()
    }

    deinit {
        engine.stop()
    }

    public func send(_ request: HTTPRequest, limits: TransportLimits) async throws(CatFactsError) -> HTTPResponse {
        let exchange = CurlExchange(request: request, limits: limits)
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
