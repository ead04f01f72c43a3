import CatFactsKit

/// A blocking C entry point's wait for the async core (``Blocking/run(cancellableBy:startingHere:_:)``):
/// its value or error. The requests it sent are recorded for `cf_last_error_attempts`;
/// `cf_client_interrupt` of `handle` cancels it. It starts on the caller's thread, so an answer
/// that is ready (a cached page, a page read ahead) costs no thread switch; requests go to the
/// pool. The caller's thread's trace context for the client (`cf_client_set_trace_context`)
/// goes with it.
func blocking<T: Sendable>(on handle: ClientHandle,
                           _ body: @escaping @Sendable () async throws(CatFactsError) -> T) -> Result<T, CatFactsError> {
    let report = CallReport()
    let host = ThreadTraceContexts.current(for: handle.client)
    let result = Blocking.run(cancellableBy: handle.calls, startingHere: true) { () async -> Result<T, CatFactsError> in
        await HostTrace.$current.withValue(host) { () async -> Result<T, CatFactsError> in
            await CallReport.$current.withValue(report) { () async -> Result<T, CatFactsError> in
                do throws(CatFactsError) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            }
        }
    }
    ErrorFields.addAttempts(report.attempts)
    return result
}
