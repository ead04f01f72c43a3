/// How a ``MockServer`` listens, what it serves and how it misbehaves.
///
/// The defaults serve the bundled catalog on `127.0.0.1:8106` with no delay and no faults.
public struct MockConfiguration: Sendable {
    /// The address to bind. Loopback by default; `"0.0.0.0"` or `"::"` listen on every interface.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 asks the system for a free one (read it back from ``MockServer/port``).
    public var port: Int = 8106
    /// `nil` serves the bundled catalog's breeds; N serves a synthetic catalog of N breeds.
    public var breeds: Int? = nil
    /// `nil` serves the bundled catalog's facts; N serves a synthetic catalog of N facts.
    public var facts: Int? = nil
    /// Delay added before each response head.
    public var latency: Duration = .zero
    /// Uniform random spread added to ``latency`` (plus or minus); the delay never goes below zero.
    public var jitter: Duration = .zero
    /// Probability, in `0...1`, that a request gets a fault.
    public var failRate: Double = 0
    /// The faults to inject whenever a request is chosen to fail, picked as ``faultOrder`` says.
    /// Empty means ``MockFault/serverError``.
    public var faults: [MockFault] = []
    /// How a failing request's fault is picked from ``faults``: in turn (the default) or at random.
    public var faultOrder: MockFaultOrder = .turn
    /// The first N requests always get a fault (for retry tests); ``failRate`` applies after them.
    public var failFirst: Int = 0
    /// The server's cap on `limit`: a larger `limit` is served as this many items per page.
    public var maxLimit: Int = 1000
    /// How long a ``MockFault/slow`` response spreads its body over.
    public var slowBody: Duration = .seconds(2)
    /// The `Retry-After` value, in seconds, sent with a ``MockFault/rateLimited`` or
    /// ``MockFault/unavailable`` response.
    public var retryAfterSeconds: Int = 1
    /// Send `Retry-After` as an HTTP date that far ahead instead of as seconds.
    public var retryAfterAsDate = false
    /// Seeds fault choice, jitter and `/fact`'s randomness so runs repeat; `nil` seeds from the system.
    public var seed: UInt64? = nil
    /// Print one line per request on standard output (``RequestLog``): method, path and query,
    /// and the `traceparent` it carried.
    public var logRequests = false
    /// Hold each request until this many are in flight at once, then let them all go and
    /// hold none after (a one-time gate, for tests that must see N requests under way
    /// together); `nil` holds none. `GET /_mock/stats` reports the peak in flight.
    public var hold: Int? = nil
    /// Requests that pass the ``hold`` gate unheld before it starts counting, e.g. a list's
    /// first page, which a client fetches alone to learn how many pages follow.
    public var holdAfter: Int = 0
    /// How long the ``hold`` gate waits for its requests before opening anyway (the stats then
    /// say `"hold":"timed out"`): a bound only a client that never sends them together reaches.
    public var holdLimit: Duration = .seconds(60)
    /// The most body bytes of rendered `/breeds` and `/facts` pages kept to be served again
    /// (oldest dropped first; at most ``renderCacheEntries`` pages); 0 renders every response.
    public var renderCacheBytes: Int = 64 << 20
    /// The most pages kept by the render cache (see ``renderCacheBytes``).
    public var renderCacheEntries: Int = 4096

    /// A configuration with every default: the bundled catalog on `127.0.0.1:8106`, no faults.
    public init() {}
}
