import CatFactsKit
import CCatFactsHeader

// The paged-list section of include/catfacts.h.

@_cdecl("cf_list_open")
public func cf_list_open(_ client: OpaquePointer?, _ what: cf_collection, _ optionsJSON: UnsafePointer<CChar>?,
                         _ out: UnsafeMutablePointer<OpaquePointer?>?) -> cf_status {
    out?.pointee = nil
    return Call.status { () throws(CatFactsError) in
        let clientHandle = try ClientHandle.handle(client)
        guard let out else { throw .argument("out (the cf_list ** to fill) is NULL") }
        out.pointee = try ListHandle.open(on: clientHandle, what, json: optionsJSON)
    }
}

@_cdecl("cf_list_count")
public func cf_list_count(_ list: OpaquePointer?) -> Int64 {
    ErrorFields.reset()
    do throws(CatFactsError) {
        let count = try ListHandle.list(list).count
        _ = LastError.succeed()
        return count.map(Int64.init) ?? Int64(CF_COUNT_UNKNOWN)
    } catch {
        _ = LastError.fail(error)
        return Int64(CF_COUNT_INVALID)
    }
}

@_cdecl("cf_list_breed")
public func cf_list_breed(_ list: OpaquePointer?, _ index: Int64,
                          _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_breed>?>?) -> cf_status {
    Call.itemStatus(clearing: out) { () throws(CatFactsError) in
        try ListHandle.breeds(list).item(at: index, into: out, named: "cf_breed", CItems.breed)
    }
}

@_cdecl("cf_list_fact")
public func cf_list_fact(_ list: OpaquePointer?, _ index: Int64,
                         _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_fact>?>?) -> cf_status {
    Call.itemStatus(clearing: out) { () throws(CatFactsError) in
        try ListHandle.facts(list).item(at: index, into: out, named: "cf_fact", CItems.fact)
    }
}

@_cdecl("cf_list_wait")
public func cf_list_wait(_ list: OpaquePointer?, _ index: Int64, _ timeoutMs: Int64) -> cf_status {
    Call.itemStatus { () throws(CatFactsError) -> Call.Pending? in
        let handle = try ListHandle.list(list)
        guard timeoutMs >= 0 else { throw .argument("timeout_ms \(timeoutMs) is negative") }
        let outcome = Blocking.run(cancellableBy: handle.calls) {
            await handle.wait(for: Call.int(index), timeout: .milliseconds(timeoutMs))
        }
        switch outcome.status {
        case .ok: return nil
        case .pending: return Call.Pending(index: index)
        default: throw outcome.error ?? .internal("item \(index) has status \(outcome.status) and no error")
        }
    }
}

@_cdecl("cf_list_retry")
public func cf_list_retry(_ list: OpaquePointer?) -> cf_status {
    Call.status { () throws(CatFactsError) in try ListHandle.list(list).retry() }
}

@_cdecl("cf_list_set_listener")
public func cf_list_set_listener(_ list: OpaquePointer?, _ function: cf_list_listener?,
                                 _ context: UnsafeMutableRawPointer?) -> cf_status {
    Call.status { () throws(CatFactsError) in
        try ListHandle.list(list).setListener(CCallback.listener(function, context) { callback in
            { @Sendable (event: PagingEvent) in
                callback.function(callback.context, cf_event(event.kind), Int64(event.first), Int64(event.count))
            }
        })
    }
}

@_cdecl("cf_list_close")
public func cf_list_close(_ list: OpaquePointer?) {
    ListHandle.close(list)
}
