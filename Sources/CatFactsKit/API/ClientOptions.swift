import Foundation

/// How a ``CatFactsClient`` talks to the server.
public struct ClientOptions: Sendable, Equatable {
    /// The real service.
    public static let defaultBaseURL = "https://catfact.ninja"

    /// Where the API lives: http or https, optionally with a path prefix
    /// (`http://proxy:8080/catfacts`); endpoint paths are appended to it.
    public var baseURL: String = ClientOptions.defaultBaseURL
    /// Timeouts and the body size cap.
    public var limits = TransportLimits()
    /// Sent as `User-Agent` with every request.
    public var userAgent: String = LibraryVersion.userAgent
    /// Which failed requests are sent again, and after how long.
    public var retry = RetryPolicy()
    /// Answer from the bundled catalog (labelled ``Source/offlineCatalog``) when the server
    /// cannot be reached, instead of failing.
    public var offlineFallback = false

    public init(baseURL: String? = nil, limits: TransportLimits = TransportLimits(),
                userAgent: String? = nil, retry: RetryPolicy = RetryPolicy(), offlineFallback: Bool = false) {
        self.baseURL = baseURL ?? ClientOptions.defaultBaseURL
        self.limits = limits
        self.userAgent = userAgent ?? LibraryVersion.userAgent
        self.retry = retry
        self.offlineFallback = offlineFallback
    }

    /// The base URL, checked: http or https with a host; a trailing `/` dropped.
    func validatedBaseURL() throws(CatFactsError) -> URL {
        var text = baseURL.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .argument("base URL '\(baseURL)' is not a URL; expected e.g. \(Self.defaultBaseURL)")
        }
        guard scheme == "http" || scheme == "https" else {
            throw .argument("base URL '\(baseURL)' uses scheme '\(scheme)'; only http and https are accepted")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .argument("base URL '\(baseURL)' has no host")
        }
        guard components.query == nil, components.fragment == nil else {
            throw .argument("base URL '\(baseURL)' must not carry a query or fragment")
        }
        guard let url = components.url else {
            throw .argument("base URL '\(baseURL)' is not a valid URL")
        }
        return url
    }

    func validate() throws(CatFactsError) {
        _ = try validatedBaseURL()
        guard limits.connectTimeout > .zero, limits.totalTimeout > .zero else {
            throw .argument("timeouts must be greater than zero")
        }
        guard limits.maxBodyBytes > 0 else {
            throw .argument("the body size cap must be greater than zero")
        }
        guard retry.retries >= 0 else {
            throw .argument("retries \(retry.retries) is negative")
        }
    }
}
