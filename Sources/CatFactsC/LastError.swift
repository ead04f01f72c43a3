import CatFactsKit
import CCatFactsHeader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's last error message (`cf_last_error`), kept in thread-specific
/// storage so threads never see each other's messages. Each message is a malloc'ed copy
/// freed when the next one replaces it or when the thread exits.
enum LastError {
    /// Created once; a thread's message is freed when the thread ends.
    private static let key = ThreadKey.make()

    /// The current message; "" when the thread's last call succeeded.
    static var message: UnsafePointer<CChar> {
        guard let pointer = pthread_getspecific(key) else { return StaticCStrings.empty }
        return UnsafePointer(pointer.assumingMemoryBound(to: CChar.self))
    }

    /// Replaces the thread's message (`nil` clears it). Control characters in it (a caller's
    /// text quoted back, a server's) are written as escapes (``ControlEscapes``): a message
    /// is one line a host can log or print as it is, with no NUL cutting it short.
    static func set(_ text: String?) {
        let old = pthread_getspecific(key)
        pthread_setspecific(key, text.flatMap { UnsafeRawPointer(strdup(ControlEscapes.escaped($0))) })
        free(old)
    }

    /// Clears the message and the fields and returns `CF_OK`: what a successful call ends with.
    static func succeed() -> cf_status {
        set(nil)
        ErrorFields.reset()
        return CF_OK
    }

    /// Records `error`'s description and fields and returns its status.
    static func fail(_ error: CatFactsError) -> cf_status {
        set(error.description)
        ErrorFields.record(error)
        return cf_status(error.status)
    }
}
