#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thread-specific storage for what the C face keeps per calling thread (the last error's
/// message and fields): each thread's value is malloc'ed, and freed when the thread exits.
enum ThreadKey {
    /// A new key whose values are freed with `free`.
    static func make() -> pthread_key_t {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            free(pointer)
        }
        guard created == 0 else { fatalError("pthread_key_create failed: \(created)") }
        return key
    }
}
