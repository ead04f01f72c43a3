/// The last resort of a call: when the server cannot be reached
/// (``CatFactsError/isServerUnreachable``: network error, timeout, deadline, offline) and
/// ``ClientOptions/offlineFallback`` is on, the bundled catalog answers instead, labelled
/// ``Source/offlineCatalog``. Other errors (a 404, a body that does not decode, cancellation)
/// are never hidden.
struct OfflineFallback: Sendable {
    let enabled: Bool
    /// The whole call's limit (``ClientOptions/deadline``), bound around the online part.
    let deadline: Duration?

    func run<Value>(
        _ online: () async throws(CatFactsError) -> Value,
        offline: () throws(CatFactsError) -> Value
    ) async throws(CatFactsError) -> Value {
        do {
            return try await CallDeadline.bound(deadline) { () async throws(CatFactsError) in try await online() }
        } catch {
            guard enabled, error.isServerUnreachable else { throw error }
            CallTrace.current?.noteSource(.offlineCatalog)
            return try offline()
        }
    }
}
