import CatFactsKit
import CCatFactsHeader

/// What a `cf_list *` points to, a list of breeds or of facts, and the one place such
/// handles are made, looked up and closed.
final class ListHandle: HandleObject {
    static let kind = HandleRegistry.Kind.list
    enum Items: Sendable {
        case breeds(PagedList<Breed>)
        case facts(PagedList<Fact>)
    }

    let items: Items
    /// Its client handle's calls in progress (``ClientHandle/calls``, kept after that handle
    /// closes): `cf_client_interrupt` ends a `cf_list_wait` too.
    let calls: CallsInProgress
    private init(_ items: Items, calls: CallsInProgress) {
        self.items = items
        self.calls = calls
    }

    /// A new handle: a list of `what` on the client of `clientHandle`, with `cf_list_open`'s
    /// options; its waits are among that handle's calls.
    static func open(on clientHandle: ClientHandle, _ what: cf_collection,
                     json: UnsafePointer<CChar>?) throws(CatFactsError) -> OpaquePointer {
        let client = clientHandle.client
        let (options, maxLength) = try PagingOptions.parse(json)
        let items: Items
        switch what {
        case CF_BREEDS:
            guard maxLength == 0 else { throw .argument("'max_length' in list options applies to facts only") }
            items = .breeds(try client.breedList(options))
        case CF_FACTS:
            items = .facts(try client.factList(options, maxLength: maxLength))
        default:
            throw .argument("collection \(what.rawValue) is neither CF_BREEDS (\(CF_BREEDS.rawValue)) nor CF_FACTS (\(CF_FACTS.rawValue))")
        }
        let handle = ListHandle(items, calls: clientHandle.calls)
        do throws(CatFactsError) {
            return try Handle.make(handle)
        } catch {
            handle.close()
            throw error
        }
    }

    /// The list `pointer` stands for, or the argument error naming it.
    static func list(_ pointer: OpaquePointer?) throws(CatFactsError) -> ListHandle {
        try Handle.require(pointer, as: ListHandle.self, what: "the list")
    }

    /// The breeds of the list `pointer` stands for; an argument error for a list of facts.
    static func breeds(_ pointer: OpaquePointer?) throws(CatFactsError) -> PagedList<Breed> {
        guard case .breeds(let breeds) = try list(pointer).items else { throw .argument("the list holds facts; use cf_list_fact") }
        return breeds
    }

    /// The facts of the list `pointer` stands for; an argument error for a list of breeds.
    static func facts(_ pointer: OpaquePointer?) throws(CatFactsError) -> PagedList<Fact> {
        guard case .facts(let facts) = try list(pointer).items else { throw .argument("the list holds breeds; use cf_list_breed") }
        return facts
    }

    /// Ends the handle and the list; anything but an open list handle: nothing.
    static func close(_ pointer: OpaquePointer?) {
        Handle.release(pointer, as: ListHandle.self)?.close()
    }

    private func close() {
        switch items {
        case .breeds(let list): list.close()
        case .facts(let list): list.close()
        }
    }

    var count: Int? {
        switch items {
        case .breeds(let list): list.count
        case .facts(let list): list.count
        }
    }

    func setListener(_ listener: PagedList<Breed>.Listener?) {
        switch items {
        case .breeds(let list): list.setListener(listener)
        case .facts(let list): list.setListener(listener)
        }
    }

    func retry() {
        switch items {
        case .breeds(let list): list.retry()
        case .facts(let list): list.retry()
        }
    }

    /// The status `wait` ends with for `index`.
    func wait(for index: Int, timeout: Duration) async -> ItemStatus {
        switch items {
        case .breeds(let list): ItemStatus(await list.wait(for: index, timeout: timeout))
        case .facts(let list): ItemStatus(await list.wait(for: index, timeout: timeout))
        }
    }
}
