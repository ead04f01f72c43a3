/// The outermost stage of a call when tracing is on (``Tracer``): starts the call's trace,
/// binds it to the task (``CallTrace/current``) so the stages below report their attempts,
/// retry waits and the answer's source into it, and hands the finished trace to the tracer.
struct CallTracing: Sendable {
    let tracer: Tracer

    func run<Value>(_ endpoint: Endpoint, _ body: () async throws(CatFactsError) -> Value) async throws(CatFactsError) -> Value {
        guard let trace = tracer.beginCall(endpoint: endpoint.path) else { return try await body() }
        let result: Result<Value, CatFactsError> = await CallTrace.$current.withValue(trace) {
            do throws(CatFactsError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = result {
            tracer.endCall(trace, failure: error)
        } else {
            tracer.endCall(trace, failure: nil)
        }
        return try result.get()
    }
}
