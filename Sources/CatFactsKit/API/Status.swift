/// The outcome of a call, one-to-one with `cf_status` in `include/catfacts.h`.
///
/// The raw values are the C values: stable once released.
public enum Status: Int32, Sendable, CaseIterable {
    case ok = 0
    case pending = 1
    case argument = 2
    case network = 3
    case timeout = 4
    case http = 5
    case rateLimited = 6
    case decode = 7
    case notFound = 8
    case offline = 9
    case cancelled = 10
    case `internal` = 11

    /// The C constant's name, e.g. `CF_ERR_TIMEOUT`.
    public var constantName: String {
        switch self {
        case .ok: "CF_OK"
        case .pending: "CF_PENDING"
        case .argument: "CF_ERR_ARGUMENT"
        case .network: "CF_ERR_NETWORK"
        case .timeout: "CF_ERR_TIMEOUT"
        case .http: "CF_ERR_HTTP"
        case .rateLimited: "CF_ERR_RATE_LIMITED"
        case .decode: "CF_ERR_DECODE"
        case .notFound: "CF_ERR_NOT_FOUND"
        case .offline: "CF_ERR_OFFLINE"
        case .cancelled: "CF_ERR_CANCELLED"
        case .internal: "CF_ERR_INTERNAL"
        }
    }

    /// A short English phrase for the status, as `cf_status_string` returns it.
    public var phrase: String {
        switch self {
        case .ok: "ok"
        case .pending: "pending: the item's page is loading"
        case .argument: "invalid argument"
        case .network: "network error"
        case .timeout: "timed out"
        case .http: "HTTP error"
        case .rateLimited: "rate limited"
        case .decode: "could not decode the response"
        case .notFound: "not found"
        case .offline: "offline"
        case .cancelled: "cancelled"
        case .internal: "internal error"
        }
    }
}
