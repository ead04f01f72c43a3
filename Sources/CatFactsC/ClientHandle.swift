import CatFactsKit

/// What a `cf_client *` points to, and the one place such handles are made, looked up and
/// closed.
final class ClientHandle: Sendable {
    let client: CatFactsClient
    private init(_ client: CatFactsClient) { self.client = client }

    /// A new handle: a client opened with `cf_client_open`'s base URL and options.
    static func open(baseURL: UnsafePointer<CChar>?, json: UnsafePointer<CChar>?) throws(CatFactsError) -> OpaquePointer {
        Handle.make(ClientHandle(try CatFactsClient(options: ClientOptions(baseURL: baseURL, json: json))))
    }

    /// The client `pointer` stands for, or the argument error naming it.
    static func client(_ pointer: OpaquePointer?) throws(CatFactsError) -> CatFactsClient {
        try Handle.require(pointer, as: ClientHandle.self, what: "the client", kind: "cf_client").client
    }

    /// The client for `cf_client_interrupt`: `nil` for NULL or a handle of another kind, found
    /// with no lock, allocation or error message, so that a signal handler may ask.
    static func interruptible(_ pointer: OpaquePointer?) -> CatFactsClient? {
        Handle.borrow(pointer, as: ClientHandle.self)?.client
    }

    /// Ends the handle; NULL or a handle of another kind: nothing.
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
