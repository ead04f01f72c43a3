import CatFactsKit

/// What a C handle stands for: ``ClientHandle``, ``ListHandle``, ``SearchHandle``.
protocol HandleObject: AnyObject, Sendable {
    static var kind: HandleRegistry.Kind { get }
}

/// Converts between C handles and the objects they stand for, through the registry of live
/// handles (``HandleRegistry``): a pointer is looked up by its value and never read through,
/// so NULL, a closed handle, a handle of another kind and any other pointer are each told
/// apart and named. A handle holds one retain, taken at open and given back at close. Each
/// kind makes, looks up and closes its handles in its own file, through this.
enum Handle {
    static func make<T: HandleObject>(_ object: T) throws(CatFactsError) -> OpaquePointer {
        try HandleRegistry.shared.add(object, kind: T.kind)
    }

    /// The object of an open handle of `T`'s kind, with no lock, allocation or retain (for
    /// `cf_client_interrupt`, which signal handlers call); `nil` for anything else.
    static func peek<T: HandleObject>(_ pointer: OpaquePointer?, as type: T.Type) -> T? {
        guard let raw = HandleRegistry.shared.peek(pointer, kind: T.kind) else { return nil }
        return Unmanaged<T>.fromOpaque(raw).takeUnretainedValue()
    }

    /// The object, its handle ended and its retain given back; `nil` (and nothing changed)
    /// for NULL, a closed handle, a handle of another kind or any other pointer.
    static func release<T: HandleObject>(_ pointer: OpaquePointer?, as type: T.Type) -> T? {
        guard let object = HandleRegistry.shared.remove(pointer, kind: T.kind) else { return nil }
        return object.takeRetainedValue() as? T
    }

    /// The object, or the argument error naming `what` ("the client") and what the pointer
    /// is instead: NULL, closed, a handle of another kind, not a handle.
    static func require<T: HandleObject>(_ pointer: OpaquePointer?, as type: T.Type,
                                         what: String) throws(CatFactsError) -> T {
        let expected = "\(what) is not a \(T.kind.cType) *"
        switch HandleRegistry.shared.lookup(pointer, kind: T.kind) {
        case .handle(let object):
            guard let object = object as? T else { throw .internal("a \(T.kind.cType) handle holds another object") }
            return object
        case .null: throw .argument("\(what) is NULL")
        case .closed: throw .argument("\(expected): it was closed (open a new one)")
        case .otherKind(let kind): throw .argument("\(expected): a handle of another kind (a \(kind.cType) *)")
        case .notAHandle: throw .argument("\(expected): not a handle of this library")
        case .inherited(let kind):
            throw .argument("\(what) (a \(kind.cType) *) was opened before fork(), in the parent process, and cannot be used in this one: open a new client here")
        }
    }
}
