/// A C function pointer and its context, handed to listeners that run on library threads.
/// `@unchecked Sendable`: the header requires the callback and its ctx to be usable from
/// any thread; the library only passes them back, never dereferences ctx.
struct CCallback<Function>: @unchecked Sendable {
    let function: Function
    let context: UnsafeMutableRawPointer?

    /// What a `cf_*_set_listener` call installs: `nil` for a NULL `function` (which removes
    /// the listener), else the Swift listener `wrap` makes around the callback.
    static func listener<Listener>(_ function: Function?, _ context: UnsafeMutableRawPointer?,
                                   _ wrap: (CCallback) -> Listener) -> Listener? {
        function.map { wrap(CCallback(function: $0, context: context)) }
    }
}
