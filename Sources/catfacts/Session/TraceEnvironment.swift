import CatFactsKit

/// The trace the shell was started in: `TRACEPARENT` and `TRACESTATE` in its environment, the
/// convention for command-line programs (a CI job, a script run by a traced service). Its
/// calls then join that trace, as calls after `cf_client_set_trace_parent` do.
enum TraceEnvironment {
    /// Sets `client`'s trace context from `environment`; a malformed value is ignored with a
    /// warning naming it (the shell still runs, in traces of its own).
    static func join(_ client: CatFactsClient, environment: [String: String], console: Console) {
        guard let traceparent = environment["TRACEPARENT"], !traceparent.isEmpty else { return }
        do {
            try client.setTraceContext(traceparent, state: environment["TRACESTATE"])
        } catch {
            console.error("catfacts: TRACEPARENT/TRACESTATE ignored: \(error.shellDescription)")
        }
    }
}
