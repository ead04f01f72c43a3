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
/// taken at open and given back at close. A handle of another kind (a `cf_list *` cast to
/// `cf_client *`) is told apart before anything touches it: its first word, which in a Swift
/// object is its class, is compared with the class expected; no lock, no allocation, no
/// reference count, so a signal handler may ask (`cf_client_interrupt`). A closed handle is
/// freed memory and stays undefined, as the header says.
enum Handle {
    static func make<T: AnyObject>(_ object: T) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(object).toOpaque())
    }

    /// Whether `pointer` is an open handle of `type`'s kind, judged by its class word alone.
    static func isKind<T: AnyObject>(_ pointer: OpaquePointer, _ type: T.Type) -> Bool {
        UnsafeRawPointer(pointer).load(as: UnsafeRawPointer.self) == unsafeBitCast(type, to: UnsafeRawPointer.self)
    }

    /// The object; `nil` for NULL or a handle of another kind.
    static func borrow<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type) -> T? {
        guard let pointer, isKind(pointer, type) else { return nil }
        return Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// The object, its handle's retain given back; `nil` (and nothing released) for NULL or a
    /// handle of another kind.
    static func release<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type) -> T? {
        guard let pointer, isKind(pointer, type) else { return nil }
        return Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).takeRetainedValue()
    }

    /// The object, or the argument error naming `what` ("the client") and `kind` ("cf_client").
    static func require<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type, what: String,
                                      kind: String) throws(CatFactsError) -> T {
        guard let pointer else { throw .argument("\(what) is NULL") }
        guard let object = borrow(pointer, as: type) else {
            throw .argument("\(what) is not a \(kind) *: a handle of another kind")
        }
        return object
    }
}

/// A C function pointer and its context, handed to listeners that run on library threads.
/// `@unchecked Sendable`: the header requires the callback and its ctx to be usable from
/// any thread; the library only passes them back, never dereferences ctx.
struct CCallback<Function>: @unchecked Sendable {
    let function: Function
    let context: UnsafeMutableRawPointer?
}
