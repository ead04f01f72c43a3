import CatFactsKit
import CCatFactsHeader

extension cf_status {
    /// The header's constant for `status`, matched by name: a status the header lacks, or a
    /// constant it renames, fails the build.
    init(_ status: Status) {
        self = switch status {
        case .ok: CF_OK
        case .pending: CF_PENDING
        case .argument: CF_ERR_ARGUMENT
        case .network: CF_ERR_NETWORK
        case .timeout: CF_ERR_TIMEOUT
        case .http: CF_ERR_HTTP
        case .rateLimited: CF_ERR_RATE_LIMITED
        case .decode: CF_ERR_DECODE
        case .notFound: CF_ERR_NOT_FOUND
        case .offline: CF_ERR_OFFLINE
        case .cancelled: CF_ERR_CANCELLED
        case .internal: CF_ERR_INTERNAL
        }
    }
}

extension Status {
    /// The status a header constant stands for; `nil` for a value that is none of them.
    init?(_ status: cf_status) {
        guard let known = Status.allCases.first(where: { cf_status($0) == status }) else { return nil }
        self = known
    }
}

extension cf_event {
    /// The header's constant for a paging event's kind.
    init(_ kind: PagingEvent.Kind) {
        self = switch kind {
        case .loaded: CF_EVENT_LOADED
        case .failed: CF_EVENT_FAILED
        case .dropped: CF_EVENT_DROPPED
        }
    }
}
