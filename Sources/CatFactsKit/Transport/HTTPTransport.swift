/// A GET request as the client sends it.
public struct HTTPRequest: Sendable {
    public var url: WebAddress
    /// Header fields to send (the client sets `User-Agent` and `Accept`).
    public var headers: [String: String]
    /// The proxy to go through, decided by the client (``ProxyChoice``); direct by default.
    public var proxy: ProxyChoice
    public init(url: WebAddress, headers: [String: String] = [:], proxy: ProxyChoice = .direct) {
        self.url = url
        self.headers = headers
        self.proxy = proxy
    }
}

/// A complete response: status, headers (names lowercased) and the whole body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The value of a header field, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The status's reason phrase (RFC 9110) for the statuses an API answers with, else
    /// "HTTP status N"; for messages when the body says nothing useful.
    public var reasonPhrase: String {
        switch status {
        case 301: "moved permanently"
        case 302: "found"
        case 304: "not modified"
        case 400: "bad request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not found"
        case 405: "method not allowed"
        case 408: "request timeout"
        case 410: "gone"
        case 422: "unprocessable content"
        case 429: "too many requests"
        case 500: "internal server error"
        case 501: "not implemented"
        case 502: "bad gateway"
        case 503: "service unavailable"
        case 504: "gateway timeout"
        default: "HTTP status \(status)"
        }
    }
}

/// Sends GET requests. The library uses ``CurlTransport``; tests may script another.
///
/// A transport answers every HTTP status as a response; it throws only when there is no
/// complete response: ``CatFactsError/network(_:url:)``, ``CatFactsError/timeout(seconds:url:)``,
/// ``CatFactsError/cancelled`` (the calling task was cancelled), or
/// ``CatFactsError/decode(_:url:)`` for a body over ``TransportLimits/maxBodyBytes``.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest, limits: TransportLimits) async throws(CatFactsError) -> HTTPResponse
}
