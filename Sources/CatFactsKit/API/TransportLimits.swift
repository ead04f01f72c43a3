/// How long a request may take and how much it may bring back.
public struct TransportLimits: Sendable, Equatable {
    /// Longest wait with nothing received: connecting, or between two parts of the body.
    public var connectTimeout: Duration
    /// Longest wait for the whole response, from sending to the last byte.
    public var totalTimeout: Duration
    /// Bodies larger than this are cut off with a decode error, never read whole.
    public var maxBodyBytes: Int

    public init(connectTimeout: Duration = .seconds(10), totalTimeout: Duration = .seconds(30),
                maxBodyBytes: Int = 8 << 20) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxBodyBytes = maxBodyBytes
    }
}
