/// What a metrics listener learns after each request the client sends.
public struct RequestEvent: Sendable, Equatable {
    /// The endpoint's path, e.g. `/breeds`.
    public var endpoint: String
    /// Wall time from sending the request to having the whole body (or to the failure).
    public var milliseconds: Double
    /// ``Status/ok`` or the error's status.
    public var status: Status
}
