/// How a client picks each request's proxy (``ProxyChoice``): its ``ClientOptions/proxy``
/// option, else the environment's proxy variables as they were when the client was made.
struct ProxyRule: Sendable {
    let option: String?
    let environment: [String: String]

    init(option: String?, environment: [String: String] = ProcessEnvironment.current()) {
        self.option = option
        self.environment = environment.filter { ProxyChoice.variables.contains($0.key) }
    }

    /// The proxy for a request to `url`.
    func proxy(for url: WebAddress) -> ProxyChoice {
        ProxyChoice.choose(scheme: url.scheme ?? "http", host: url.host ?? "", option: option, environment: environment)
    }
}
