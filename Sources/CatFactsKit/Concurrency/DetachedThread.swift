#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread of the library's own, detached, for a loop that blocks (the curl engine's
/// poll, the telemetry exporter's, the C face's interrupt watcher's read): the library does not link Foundation's
/// `Thread`, and such loops must not hold a thread of the concurrency pool.
package enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread with a stack of `stackSize` bytes: 0, or the error
    /// number `pthread_create` gave when the system refused a thread (the caller reports it).
    @discardableResult
    package static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if os(Linux)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let started = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return started
        }
        #if os(Linux)
        pthread_detach(thread)
        #else
        if let thread { pthread_detach(thread) }
        #endif
        return 0
    }
}
