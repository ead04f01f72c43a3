import CatFactsKit

/// What a `cf_client *` points to.
final class ClientHandle: Sendable {
    let client: CatFactsClient
    init(_ client: CatFactsClient) { self.client = client }
}

/// What a `cf_list *` points to: a list of breeds or of facts.
final class ListHandle: Sendable {
    enum Items: Sendable {
        case breeds(PagedList<Breed>)
        case facts(PagedList<Fact>)
    }

    let items: Items
    /// Its client's calls in progress: `cf_client_interrupt` ends a `cf_list_wait` too.
    let calls: CallsInProgress
    init(_ items: Items, calls: CallsInProgress) {
        self.items = items
        self.calls = calls
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

    func close() {
        switch items {
        case .breeds(let list): list.close()
        case .facts(let list): list.close()
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

/// An item state without the item: what `cf_list_wait` returns, and the message for it.
struct ItemStatus: Sendable {
    let status: Status
    let error: CatFactsError?

    init<Item>(_ state: ItemState<Item>) {
        status = state.status
        switch state {
        case .failed(let error): self.error = error
        case .pastEnd: error = .notFound("the index is past the end of the list")
        default: error = nil
        }
    }
}

/// Converts between C handles and the objects they stand for. A handle holds one retain,
/// taken at open and given back at close.
enum Handle {
    static func make<T: AnyObject>(_ object: T) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(object).toOpaque())
    }

    static func borrow<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type) -> T? {
        guard let pointer else { return nil }
        return Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    static func release<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type) -> T? {
        guard let pointer else { return nil }
        return Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).takeRetainedValue()
    }
}

/// A C function pointer and its context, handed to listeners that run on library threads.
/// `@unchecked Sendable`: the header requires the callback and its ctx to be usable from
/// any thread; the library only passes them back, never dereferences ctx.
struct CCallback<Function>: @unchecked Sendable {
    let function: Function
    let context: UnsafeMutableRawPointer?
}
