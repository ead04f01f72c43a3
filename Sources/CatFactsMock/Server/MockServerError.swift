#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``MockServer`` did not start.
public enum MockServerError: Error, CustomStringConvertible, Equatable {
    /// A configuration value is out of range; the text says which and why.
    case invalidConfiguration(String)
    /// The host is not usable in a URL.
    case invalidHost(String)
    /// The address could not be bound (in use, not local, …).
    case cannotListen(host: String, port: Int, reason: String)
    /// The server shut down before it was listening.
    case stoppedBeforeListening

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidConfiguration(let text): "invalid mock configuration: \(text)"
        case .invalidHost(let host): "invalid host \"\(host)\""
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .stoppedBeforeListening: "the mock server stopped before it was listening"
        }
    }

    /// Why binding failed, in words: a port in use said plainly with what to do, anything
    /// else as the server library describes it.
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains(String(cString: strerror(EADDRINUSE))) {
            return "the port is in use; choose another --port (0 picks a free one)"
        }
        return text
    }

    /// Throws ``invalidConfiguration(_:)`` for the first value out of range.
    static func validate(_ configuration: MockConfiguration) throws(MockServerError) {
        func check(_ ok: Bool, _ text: String) throws(MockServerError) {
            if !ok { throw .invalidConfiguration(text) }
        }
        try check((0...65535).contains(configuration.port), "port must be in 0...65535")
        try check((configuration.breeds ?? 0) >= 0, "breeds must not be negative")
        try check((configuration.facts ?? 0) >= 0, "facts must not be negative")
        try check(configuration.latency >= .zero, "latency must not be negative")
        try check(configuration.jitter >= .zero, "jitter must not be negative")
        try check((0...1).contains(configuration.failRate), "fail rate must be in 0...1")
        try check(configuration.failFirst >= 0, "fail-first must not be negative")
        try check(configuration.maxLimit >= 1, "max limit must be at least 1")
        try check(configuration.slowBody >= .zero, "slow body duration must not be negative")
        try check(configuration.retryAfterSeconds >= 0, "retry-after must not be negative")
        try check((configuration.hold ?? 1) >= 1, "hold must be at least 1")
        try check(configuration.holdAfter >= 0, "hold-after must not be negative")
        try check(configuration.holdLimit > .zero, "hold limit must be greater than zero")
        try check(configuration.renderCacheBytes >= 0, "render cache bytes must not be negative")
        try check(configuration.renderCacheEntries >= 0, "render cache entries must not be negative")
    }
}
