import CatFactsKit

/// Converts between C handles and the objects they stand for. A handle holds one retain,
/// taken at open and given back at close. A handle of another kind (a `cf_list *` cast to
/// `cf_client *`) is told apart before anything touches it: its first word, which in a Swift
/// object is its class, is compared with the class expected; no lock, no allocation, no
/// reference count, so a signal handler may ask (`cf_client_interrupt`). A closed handle is
/// freed memory and stays undefined, as the header says. Each kind makes, looks up and
/// closes its handles in its own file, through this: ``ClientHandle``, ``ListHandle``,
/// ``SearchHandle``.
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
