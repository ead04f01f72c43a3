import CatFactsKit
import CCatFactsHeader

// The client, one-shot and metrics sections of include/catfacts.h.

@_cdecl("cf_client_open")
public func cf_client_open(_ baseURL: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?,
                           _ out: UnsafeMutablePointer<OpaquePointer?>?) -> cf_status {
    out?.pointee = nil
    return Call.status { () throws(CatFactsError) in
        guard let out else { throw .argument("out (the cf_client ** to fill) is NULL") }
        out.pointee = try ClientHandle.open(baseURL: baseURL, json: optionsJSON)
    }
}

@_cdecl("cf_client_close")
public func cf_client_close(_ client: OpaquePointer?) {
    ClientHandle.close(client)
}

@_cdecl("cf_breeds_page")
public func cf_breeds_page(_ client: OpaquePointer?, _ page: Int64, _ limit: Int64,
                           _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> cf_status {
    Call.json(out, client) { () throws(CatFactsError) in
        { (client) async throws(CatFactsError) in try await client.breeds(page: Call.int(page), limit: Call.int(limit)) }
    }
}

@_cdecl("cf_facts_page")
public func cf_facts_page(_ client: OpaquePointer?, _ page: Int64, _ limit: Int64, _ maxLength: Int64,
                          _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> cf_status {
    Call.json(out, client) { () throws(CatFactsError) in
        { (client) async throws(CatFactsError) in
            try await client.facts(page: Call.int(page), limit: Call.int(limit), maxLength: Call.int(maxLength))
        }
    }
}

@_cdecl("cf_fact_random")
public func cf_fact_random(_ client: OpaquePointer?, _ maxLength: Int64,
                           _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> cf_status {
    Call.json(out, client) { () throws(CatFactsError) in
        { (client) async throws(CatFactsError) in try await client.randomFact(maxLength: Call.int(maxLength)) }
    }
}

@_cdecl("cf_breed_find")
public func cf_breed_find(_ client: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                          _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> cf_status {
    Call.json(out, client) { () throws(CatFactsError) in
        guard let name else { throw .argument("name is NULL") }
        let text = try CText.string(name, what: "name")
        return { (client) async throws(CatFactsError) in try await client.breed(named: text) }
    }
}

@_cdecl("cf_breeds_query")
public func cf_breeds_query(_ client: OpaquePointer?, _ queryJSON: UnsafePointer<CChar>?,
                            _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> cf_status {
    Call.json(out, client) { () throws(CatFactsError) in
        let query = try BreedQuery.parse(queryJSON)
        return { (client) async throws(CatFactsError) in try await client.query(query) }
    }
}

@_cdecl("cf_metrics")
public func cf_metrics(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> cf_status {
    Call.text(out, what: "out_json") { () throws(CatFactsError) in
        try ClientHandle.client(client).metrics.snapshot().json()
    }
}

@_cdecl("cf_metrics_prometheus")
public func cf_metrics_prometheus(_ client: OpaquePointer?,
                                  _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> cf_status {
    Call.text(out, what: "out_text") { () throws(CatFactsError) in
        try ClientHandle.client(client).metrics.snapshot().prometheus()
    }
}

@_cdecl("cf_client_interrupt")
public func cf_client_interrupt(_ client: OpaquePointer?) {
    // No Call, no lock, no allocation: a signal handler may call this.
    ClientHandle.interruptible(client)?.interrupt()
}

@_cdecl("cf_client_set_online_listener")
public func cf_client_set_online_listener(_ client: OpaquePointer?, _ function: cf_online_listener?,
                                          _ context: UnsafeMutableRawPointer?) -> cf_status {
    Call.status { () throws(CatFactsError) in
        try ClientHandle.client(client).setOnlineListener(CCallback.listener(function, context) { callback in
            { @Sendable (online: Bool) in callback.function(callback.context, online ? 1 : 0) }
        })
    }
}

@_cdecl("cf_client_set_trace_parent")
public func cf_client_set_trace_parent(_ client: OpaquePointer?, _ traceparent: UnsafePointer<CChar>?) -> cf_status {
    Call.status { () throws(CatFactsError) in
        let client = try ClientHandle.client(client)
        let text = try traceparent.map { pointer throws(CatFactsError) in try CText.string(pointer, what: "traceparent") }
        try client.setTraceParent(text)
    }
}

@_cdecl("cf_client_set_trace_context")
public func cf_client_set_trace_context(_ client: OpaquePointer?, _ traceparent: UnsafePointer<CChar>?,
                                        _ tracestate: UnsafePointer<CChar>?) -> cf_status {
    Call.status { () throws(CatFactsError) in
        let client = try ClientHandle.client(client)
        guard let traceparent else { return try ThreadTraceContexts.set(nil, for: client) }
        let text = try CText.string(traceparent, what: "traceparent")
        let state = try tracestate.map { pointer throws(CatFactsError) in try CText.string(pointer, what: "tracestate") }
        // "": this thread's calls have no host parent, whatever the client's is.
        let context = text.isEmpty ? nil : try TraceContext(traceparent: text, tracestate: state)
        try ThreadTraceContexts.set(HostTrace(context), for: client)
    }
}

@_cdecl("cf_client_set_metrics_listener")
public func cf_client_set_metrics_listener(_ client: OpaquePointer?, _ function: cf_metrics_listener?,
                                           _ context: UnsafeMutableRawPointer?) -> cf_status {
    Call.status { () throws(CatFactsError) in
        try ClientHandle.client(client).metrics.setListener(CCallback.listener(function, context) { callback in
            { @Sendable (event: RequestEvent) in
                event.endpoint.withCString { callback.function(callback.context, $0, event.milliseconds, cf_status(event.status)) }
            }
        })
    }
}
