import CatFactsKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Each C thread's trace contexts (`cf_client_set_trace_context`), per client: what the calls
/// the thread makes on that client use instead of the client's own. Kept in the thread's own
/// storage (a pthread key), so a thread that ends takes its contexts with it, and a thread
/// with none set holds nothing.
enum ThreadTraceContexts {
    /// One thread's contexts, by the client's ``CatFactsClient/traceSerial`` (never reused,
    /// unlike a handle's address).
    private final class Contexts {
        var byClient: [Int: HostTrace] = [:]
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // A key cannot fail to be made but when the process ran out of them (PTHREAD_KEYS_MAX,
        // 1024); then every thread's contexts are refused (``set(_:for:)`` says so).
        _ = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<Contexts>.fromOpaque(raw).release()
        }
        return key
    }()

    /// The calling thread's context for `client`, if it set one.
    static func current(for client: CatFactsClient) -> HostTrace? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<Contexts>.fromOpaque(raw).takeUnretainedValue().byClient[client.traceSerial]
    }

    /// Sets (or, `nil`, removes) the calling thread's context for `client`.
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` when the system has no thread storage left.
    static func set(_ trace: HostTrace?, for client: CatFactsClient) throws(CatFactsError) {
        let raw = pthread_getspecific(key)
        guard let trace else {
            guard let raw else { return }
            let contexts = Unmanaged<Contexts>.fromOpaque(raw).takeUnretainedValue()
            contexts.byClient[client.traceSerial] = nil
            if contexts.byClient.isEmpty {
                pthread_setspecific(key, nil)
                Unmanaged<Contexts>.fromOpaque(raw).release()
            }
            return
        }
        if let raw {
            Unmanaged<Contexts>.fromOpaque(raw).takeUnretainedValue().byClient[client.traceSerial] = trace
            return
        }
        let contexts = Contexts()
        contexts.byClient[client.traceSerial] = trace
        let retained = Unmanaged.passRetained(contexts)
        guard pthread_setspecific(key, retained.toOpaque()) == 0 else {
            retained.release()
            throw .argument("the system has no thread-specific storage left for the trace context")
        }
    }
}
