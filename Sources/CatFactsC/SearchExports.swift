import CatFactsKit
import CCatFactsHeader

// The search-as-you-type section of include/catfacts.h.

/// What a `cf_search *` points to.
final class SearchHandle: Sendable {
    let search: LiveSearch
    init(_ search: LiveSearch) { self.search = search }
}

/// The options of `cf_search_open`.
struct SearchOptions {
    static let jsonKeys: Set<String> = ["debounce_ms", "limit", "fields"]
    var debounce = Duration.milliseconds(150)
    var limit = 20
    var fields = Set(Breed.Field.allCases)

    init(_ json: UnsafePointer<CChar>?) throws(CatFactsError) {
        let options = try OptionsJSON(json, what: "search options", allowed: Self.jsonKeys)
        if let ms = try options.integer("debounce_ms", in: 0...60_000) { debounce = .milliseconds(ms) }
        if let limit = try options.integer("limit", in: 1...10_000) { self.limit = limit }
        if let names = try options.stringArray("fields") {
            fields = [.breed]
            for name in names { fields.insert(try Breed.Field.named(name, key: "fields", in: "the search options")) }
        }
    }
}

@_cdecl("cf_search_open")
public func cf_search_open(_ client: OpaquePointer?, _ optionsJSON: UnsafePointer<CChar>?, _ function: cf_search_listener?,
                           _ context: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> cf_status {
    out?.pointee = nil
    return Call.status { () throws(CatFactsError) in
        let client = try Call.client(client)
        guard let function else { throw .argument("the listener is NULL: a search answers only through it") }
        guard let out else { throw .argument("out (the cf_search ** to fill) is NULL") }
        let options = try SearchOptions(optionsJSON)
        let callback = CCallback(function: function, context: context)
        let search = LiveSearch(client: client, debounce: options.debounce, limit: options.limit,
                                fields: options.fields) { answer in
            let status: cf_status = switch answer.result {
            case .success: CF_OK
            case .failure(let error): cf_status(error.status)
            }
            answer.json.withCString { callback.function(callback.context, Int64(answer.generation), status, $0) }
        }
        out.pointee = Handle.make(SearchHandle(search))
    }
}

@_cdecl("cf_search_set")
public func cf_search_set(_ search: OpaquePointer?, _ text: UnsafePointer<CChar>?) -> cf_status {
    Call.status { () throws(CatFactsError) in
        let handle = try Handle.require(search, as: SearchHandle.self, what: "the search", kind: "cf_search")
        guard let text else { throw .argument("the text is NULL; use \"\" for none") }
        let string = try CText.string(text, what: "the search text")
        try CText.requireLength(string, what: "the search text", atMost: 1024)
        handle.search.set(string)
    }
}

@_cdecl("cf_search_close")
public func cf_search_close(_ search: OpaquePointer?) {
    Handle.release(search, as: SearchHandle.self)?.search.close()
}
