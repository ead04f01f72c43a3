/// A request the client is sending, as it goes out and as it ends: for a front that shows
/// what the client waits for (a spinner naming the request) or whether the server was reached
/// (``CatFactsClient/setActivityListener(_:)``). Offline probes are not reported.
public struct RequestActivity: Sendable {
    /// How far the request got.
    public enum Phase: Sendable {
        /// The request is going out.
        case began
        /// It ended: with a response, whatever its status (`nil`), or with the transport's
        /// error when no whole response came back.
        case ended(CatFactsError?)
    }

    /// Tells the two events of one request apart from those of others in flight.
    public let id: Int
    /// The whole URL (credentials never appear: the client's URLs carry none).
    public let url: WebAddress
    public let phase: Phase
}
