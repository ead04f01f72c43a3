import Hummingbird

/// The request context: Hummingbird's core storage plus the port the request arrived on, for
/// page URLs when a request carries no `Host` header.
struct MockRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The local port of the connection, when known.
    let localPort: Int?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        localPort = source.channel.localAddress?.port
    }
}
