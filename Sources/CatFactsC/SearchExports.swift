import CatFactsKit
import CCatFactsHeader

// The search-as-you-type section of include/catfacts.h.

@_cdecl("cf_search_open")
public func cf_search_open(_ client: OpaquePointer?, _ optionsJSON: UnsafePointer<CChar>?, _ function: cf_search_listener?,
                           _ context: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> cf_status {
    out?.pointee = nil
    return Call.status { () throws(CatFactsError) in
        let client = try ClientHandle.client(client)
        guard let function else { throw .argument("the listener is NULL: a search answers only through it") }
        guard let out else { throw .argument("out (the cf_search ** to fill) is NULL") }
        out.pointee = try SearchHandle.open(on: client, json: optionsJSON, listener: function, context: context)
    }
}

@_cdecl("cf_search_set")
public func cf_search_set(_ search: OpaquePointer?, _ text: UnsafePointer<CChar>?) -> cf_status {
    Call.status { () throws(CatFactsError) in
        let search = try SearchHandle.search(search)
        guard let text else { throw .argument("the text is NULL; use \"\" for none") }
        let string = try CText.string(text, what: "the search text")
        try CText.requireLength(string, what: "the search text", atMost: 1024)
        search.set(string)
    }
}

@_cdecl("cf_search_close")
public func cf_search_close(_ search: OpaquePointer?) {
    SearchHandle.close(search)
}
