import CatFactsKit

/// The transport of `catfacts --offline`: sends nothing, and fails every request as
/// offline, so the client answers from the bundled catalog (its offline fallback) and
/// labels the answers so.
struct OfflineTransport: HTTPTransport {
    func send(_ request: HTTPRequest, limits: TransportLimits) async throws(CatFactsError) -> HTTPResponse {
        throw .offline("--offline: nothing is sent to \(request.url.absoluteString)")
    }
}
