/// The server the session talks to and how, for `source` and the offline notice.
struct ServerInfo: Sendable {
    /// Where the server came from.
    enum Origin: String, Sendable {
        /// The real service (the default).
        case service = "the Cat Facts API"
        /// `--base-url`.
        case baseURL = "--base-url"
        /// `--mock`: catfacts-mock, started by the shell on a loopback port.
        case mock = "--mock: catfacts-mock, started by the shell"
    }

    /// The base URL.
    var url: String
    var origin: Origin
    /// `--offline`: nothing is sent; everything comes from the bundled catalog.
    var offline: Bool
    /// Whether an unreachable server is answered from the bundled catalog.
    var fallback: Bool
}
