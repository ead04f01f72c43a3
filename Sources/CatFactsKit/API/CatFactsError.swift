/// Every way a CatFacts call can fail. Each case maps to one ``Status`` (and so to one
/// `CF_ERR_*`), and its description says what failed, why, and what to try.
public enum CatFactsError: Error, Sendable, Equatable {
    /// A caller's mistake: a bad option, URL, page number or name.
    case argument(String)
    /// A client option the caller set is refused: `value` as given (a URL's password
    /// hidden), `problem` what is wrong with it and what is accepted ("must be in 0..100").
    /// Each front names the option its own way (``description(naming:)``).
    case invalidOption(ClientOption, value: String, problem: String)
    /// The server could not be reached or the connection broke.
    case network(String, url: String)
    /// No complete answer within the time allowed.
    case timeout(seconds: Double, url: String)
    /// The call's deadline (``ClientOptions/deadline``) passed before it could end:
    /// `attempts` requests were sent; `reason` says what it was waiting for.
    case deadlinePassed(milliseconds: Int, attempts: Int, reason: String, url: String)
    /// The server answered with an error status; `message` is the server's own when it sent
    /// one; `retryAfter` its `Retry-After` in seconds (a 503 for maintenance sends one).
    case http(status: Int, message: String, url: String, retryAfter: Double? = nil)
    /// The server answered 429; `retryAfter` is its `Retry-After` in seconds, when given.
    case rateLimited(retryAfter: Double?, url: String)
    /// The body was not what the API sends; the text says what was wrong and where.
    case decode(String, url: String)
    /// No such item (a breed name, an index past the end of a list).
    case notFound(String)
    /// Offline and nothing to serve instead.
    case offline(String)
    /// The call was cancelled before it finished.
    case cancelled
    /// A bug in CatFacts; the text says where.
    case `internal`(String)

    /// The server's `Retry-After`, in seconds, when the error carries one.
    public var retryAfter: Double? {
        switch self {
        case .rateLimited(let retryAfter, _), .http(_, _, _, let retryAfter): retryAfter
        default: nil
        }
    }

    /// The status this error maps to.
    public var status: Status {
        switch self {
        case .argument, .invalidOption: .argument
        case .network: .network
        case .timeout, .deadlinePassed: .timeout
        case .http: .http
        case .rateLimited: .rateLimited
        case .decode: .decode
        case .notFound: .notFound
        case .offline: .offline
        case .cancelled: .cancelled
        case .internal: .internal
        }
    }
}

extension CatFactsError: CustomStringConvertible {
    /// The option to change: the one refused for ``invalidOption(_:value:problem:)``; the
    /// one that waits longer, when raising it may get past this error: the attempt's timeout
    /// for ``timeout(seconds:url:)``, the deadline for
    /// ``deadlinePassed(milliseconds:attempts:reason:url:)``; `nil` for the others.
    public var option: ClientOption? {
        switch self {
        case .invalidOption(let option, _, _): option
        case .timeout: .attemptTimeout
        case .deadlinePassed: .deadline
        default: nil
        }
    }

    /// What failed, why and what to try, in the C API's words: ``option`` named by its
    /// options key (`deadline_ms`; `retries=-1: must be in 0..100`).
    public var description: String { description(naming: { $0.rawValue }) }

    /// ``description`` with ``option`` named as a front names it (`--timeout` in the shell):
    /// `name` gives the front's word for it, or `nil` when the front has no such option (the
    /// advice to raise it is then left out; a refused option is named by its C key).
    @_optimize(size)  // once per error
    public func description(naming name: (ClientOption) -> String?) -> String {
        switch self {
        case .argument(let text):
            return "invalid argument: \(text)"
        case .invalidOption(let option, let value, let problem):
            return "invalid argument: \(name(option) ?? option.rawValue)=\(value): \(problem)"
        case .network(let cause, let url):
            return "network error for \(url): \(cause); check the address and your connection"
        case .timeout(let seconds, let url):
            let advice = name(.attemptTimeout).map { " (raise \($0) to wait longer)" } ?? ""
            return "timed out after \(Self.format(seconds)) s waiting for \(url); the server is slow or unreachable\(advice)"
        case .deadlinePassed(let milliseconds, let attempts, let reason, let url):
            let advice = name(.deadline).map { "; raise \($0) to wait longer" } ?? ""
            return "the call's deadline of \(milliseconds) ms passed after \(attempts) attempt\(attempts == 1 ? "" : "s") "
                + "to \(url): \(reason)\(advice)"
        case .http(let status, let message, let url, let retryAfter):
            let said = message.isEmpty ? "" : ": \(message)"
            let wait = retryAfter.map { "; it asks to retry after \(Self.format($0)) s" } ?? ""
            return "HTTP \(status) from \(url)\(said)\(wait)"
        case .rateLimited(let retryAfter, let url):
            let wait = retryAfter.map { "; retry after \(Self.format($0)) s" } ?? "; wait before retrying"
            return "rate limited (HTTP 429) by \(url)\(wait)"
        case .decode(let what, let url):
            return "could not decode the response from \(url): \(what)"
        case .notFound(let what):
            return "not found: \(what)"
        case .offline(let what):
            return "offline: \(what)"
        case .cancelled:
            return "cancelled"
        case .internal(let what):
            return "internal error: \(what) (please report it)"
        }
    }

    /// The description: what Foundation's `LocalizedError` asks for (CatFactsFoundation declares
    /// the conformance, so `localizedDescription` says it too).
    public var errorDescription: String? { description }

    /// Seconds as a person reads them: whole ones as integers, else three significant digits
    /// ("0.25", "1.5", "12.3"), as `%.3g` wrote them (the library does not link Foundation's
    /// `String(format:)`). Never traps, whatever the value.
    package static func format(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return String(seconds) }
        if seconds == seconds.rounded() { return String(Int(seconds)) }
        var magnitude = abs(seconds)
        var decimals: Int
        if magnitude >= 1 {
            decimals = 2
            while magnitude >= 10, decimals > 0 { magnitude /= 10; decimals -= 1 }
        } else {
            decimals = 3
            while magnitude < 0.1, decimals < 9 { magnitude *= 10; decimals += 1 }
        }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(seconds) * Double(scale)).rounded())
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = (seconds < 0 ? "-" : "") + String(scaled / scale)
        return fraction.isEmpty ? whole : whole + "." + fraction
    }
}
