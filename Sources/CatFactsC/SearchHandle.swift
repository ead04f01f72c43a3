import CatFactsKit
import CCatFactsHeader

/// What a `cf_search *` points to, and the one place such handles are made, looked up and
/// closed.
final class SearchHandle: HandleObject {
    static let kind = HandleRegistry.Kind.search
    let search: LiveSearch
    private init(_ search: LiveSearch) { self.search = search }

    /// A new handle: a search over `client`'s breeds with `cf_search_open`'s options, whose
    /// answers go to `function` with `context`.
    static func open(on client: CatFactsClient, json: UnsafePointer<CChar>?, listener function: cf_search_listener,
                     context: UnsafeMutableRawPointer?) throws(CatFactsError) -> OpaquePointer {
        let options = try SearchOptions(json)
        let callback = CCallback(function: function, context: context)
        let search = LiveSearch(client: client, debounce: options.debounce, limit: options.limit,
                                fields: options.fields) { answer in
            let status: cf_status = switch answer.result {
            case .success: CF_OK
            case .failure(let error): cf_status(error.status)
            }
            answer.json.withCString { callback.function(callback.context, Int64(answer.generation), status, $0) }
        }
        do throws(CatFactsError) {
            return try Handle.make(SearchHandle(search))
        } catch {
            search.close()
            throw error
        }
    }

    /// The search `pointer` stands for, or the argument error naming it.
    static func search(_ pointer: OpaquePointer?) throws(CatFactsError) -> LiveSearch {
        try Handle.require(pointer, as: SearchHandle.self, what: "the search").search
    }

    /// Ends the handle and the search; anything but an open search handle: nothing.
    static func close(_ pointer: OpaquePointer?) {
        Handle.release(pointer, as: SearchHandle.self)?.search.close()
    }
}
