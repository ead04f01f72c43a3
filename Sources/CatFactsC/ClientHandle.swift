import CatFactsKit

/// What a `cf_client *` points to, and the one place such handles are made, looked up and
/// closed.
final class ClientHandle: HandleObject {
    static let kind = HandleRegistry.Kind.client
    let client: CatFactsClient
    /// The blocking calls in progress through this handle and the lists opened on it: what
    /// `cf_client_interrupt` cancels. The C face's alone: a Swift program's client has none,
    /// and starts no interrupt watcher.
    let calls = CallsInProgress()
    private init(_ client: CatFactsClient) { self.client = client }

    /// A new handle: a client opened with `cf_client_open`'s base URL and options.
    static func open(baseURL: UnsafePointer<CChar>?, json: UnsafePointer<CChar>?) throws(CatFactsError) -> OpaquePointer {
        let client = try CatFactsClient(options: ClientOptions(baseURL: baseURL, json: json))
        do throws(CatFactsError) {
            return try Handle.make(ClientHandle(client))
        } catch {
            client.close()
            throw error
        }
    }

    /// The handle `pointer` stands for, or the argument error naming it.
    static func handle(_ pointer: OpaquePointer?) throws(CatFactsError) -> ClientHandle {
        try Handle.require(pointer, as: ClientHandle.self, what: "the client")
    }

    /// The client `pointer` stands for, or the argument error naming it.
    static func client(_ pointer: OpaquePointer?) throws(CatFactsError) -> CatFactsClient {
        try handle(pointer).client
    }

    /// The calls `cf_client_interrupt` cancels: `nil` for anything but an open client handle,
    /// found with no lock, allocation or error message, so that a signal handler may ask.
    static func interruptible(_ pointer: OpaquePointer?) -> CallsInProgress? {
        Handle.peek(pointer, as: ClientHandle.self)?.calls
    }

    /// Ends the handle; anything but an open client handle: nothing.
    static func close(_ pointer: OpaquePointer?) {
        // Lists and searches may keep the client working after its handle is gone: its
        // listeners must not outlive the handle.
        guard let client = Handle.release(pointer, as: ClientHandle.self)?.client else { return }
        client.metrics.removeListenerAndWait()
        client.removeOnlineListenerAndWait()
        // The exporter's last spans and metrics, bounded (a hung collector costs at most 2 s).
        client.close()
    }
}
