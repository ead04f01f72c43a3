import CatFactsKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's last failure as fields (`cf_last_error_http_status`,
/// `cf_last_error_retry_after_ms`, `cf_last_error_attempts`), beside its message and kept
/// the same way: thread-specific, reset by every call, freed when the thread exits.
enum ErrorFields {
    struct Values {
        var httpStatus: Int32 = 0
        var retryAfterMilliseconds: Int64 = -1
        var attempts: Int32 = 0
    }

    private static let key = ThreadKey.make()

    /// The thread's fields; the defaults when it has none yet.
    static var current: Values {
        guard let pointer = pthread_getspecific(key) else { return Values() }
        return pointer.assumingMemoryBound(to: Values.self).pointee
    }

    /// Back to "no failure": every call starts with this.
    static func reset() {
        update { $0 = Values() }
    }

    /// Counts requests a blocking call sent (a call may make several blocking waits).
    static func addAttempts(_ count: Int) {
        update { $0.attempts = $0.attempts.addingReportingOverflow(Int32(clamping: count)).partialValue }
    }

    /// The fields `error` carries; the attempts counted so far stay.
    static func record(_ error: CatFactsError) {
        update { values in
            switch error {
            case .http(let status, _, _, let retryAfter):
                values.httpStatus = Int32(clamping: status)
                values.retryAfterMilliseconds = milliseconds(retryAfter)
            case .rateLimited(let retryAfter, _):
                values.httpStatus = 429
                values.retryAfterMilliseconds = milliseconds(retryAfter)
            default:
                values.httpStatus = 0
                values.retryAfterMilliseconds = -1
            }
        }
    }

    /// Seconds as whole milliseconds, rounded up; -1 for none. Never traps: a server may
    /// send any number.
    private static func milliseconds(_ seconds: Double?) -> Int64 {
        guard let seconds, seconds >= 0 else { return -1 }
        let value = (seconds * 1000).rounded(.up)
        return value < 9.2e18 ? Int64(value) : Int64.max
    }

    private static func update(_ change: (inout Values) -> Void) {
        let pointer: UnsafeMutablePointer<Values>
        if let existing = pthread_getspecific(key) {
            pointer = existing.assumingMemoryBound(to: Values.self)
        } else {
            // malloc, not allocate(capacity:): the thread's destructor frees it with free().
            guard let raw = malloc(MemoryLayout<Values>.stride) else { return }
            pointer = raw.bindMemory(to: Values.self, capacity: 1)
            pointer.initialize(to: Values())
            pthread_setspecific(key, raw)
        }
        change(&pointer.pointee)
    }
}
