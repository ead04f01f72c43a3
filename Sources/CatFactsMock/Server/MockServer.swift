import CatFactsKit
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A local server with the Cat Facts API (`/breeds`, `/facts`, `/fact`), answering as the
/// real service does, with latency and faults on demand.
///
/// ```swift
/// var configuration = MockConfiguration()
/// configuration.port = 0
/// let server = try await MockServer.start(configuration)
/// // … requests to server.baseURL …
/// await server.stop()
/// ```
public final class MockServer: Sendable {
    /// The bound port (the real one when the configuration asked for port 0).
    public let port: Int
    /// Where to send requests, e.g. `http://127.0.0.1:8106`; a wildcard host reads as loopback.
    public let baseURL: URL

    private let traffic: MockTraffic
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let stopped = Locked(false)

    private init(port: Int, baseURL: URL, traffic: MockTraffic, group: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.baseURL = baseURL
        self.traffic = traffic
        self.group = group
        self.running = running
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Throws: ``MockServerError`` when the configuration is invalid or the address cannot be bound.
    public static func start(_ configuration: MockConfiguration) async throws -> MockServer {
        try MockServerError.validate(configuration)
        let traffic = MockTraffic(configuration)
        let responder = MockResponder(
            routes: MockRoutes(catalog: MockCatalog(configuration), maxLimit: configuration.maxLimit),
            traffic: traffic, gauge: InFlightGauge(configuration),
            pages: RenderedPages(maxBytes: configuration.renderCacheBytes, maxEntries: configuration.renderCacheEntries),
            configuration: configuration)

        var logger = Logger(label: "catfacts-mock")
        // Quiet by default (benchmarks use the mock); Hummingbird's errors still reach stderr.
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .error

        let (bound, boundContinuation) = AsyncStream.makeStream(of: Result<Int, any Error>.self)
        let app = Application(
            responder: responder,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                 serverName: nil),
            onServerRunning: { channel in
                boundContinuation.yield(.success(channel.localAddress?.port ?? configuration.port))
            },
            logger: logger)
        var groupConfiguration = ServiceGroupConfiguration(services: [app], logger: logger)
        // A client holding a request open must not stall `stop()` forever.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfiguration)
        let running = Task {
            do {
                try await group.run()
                boundContinuation.yield(.failure(MockServerError.stoppedBeforeListening))
            } catch {
                boundContinuation.yield(.failure(MockServerError.cannotListen(
                    host: configuration.host, port: configuration.port, reason: MockServerError.reason(error))))
                throw error
            }
        }
        var result: Result<Int, any Error> = .failure(MockServerError.stoppedBeforeListening)
        for await first in bound {
            result = first
            break
        }
        switch result {
        case .success(let port):
            let url = URL(string: "http://" + authority(host: loopbackIfWildcard(configuration.host), port: port))
            guard let url else {
                await group.triggerGracefulShutdown()
                _ = await running.result
                throw MockServerError.invalidHost(configuration.host)
            }
            return MockServer(port: port, baseURL: url, traffic: traffic, group: group, running: running)
        case .failure(let error):
            running.cancel()
            throw error
        }
    }

    /// Requests served so far, faults included: all of them, or those to one path such as `"/breeds"`.
    public func requestCount(path: String? = nil) -> Int {
        traffic.count(path: path.map(MockResponder.normalise))
    }

    /// Stops accepting connections, lets responses in flight finish (five seconds at most),
    /// and returns once the server is down. Calling it again does nothing more.
    public func stop() async {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { await group.triggerGracefulShutdown() }
        _ = await running.result
    }

    /// `host:port`, with an IPv6 host in brackets.
    static func authority(host: String, port: Int) -> String {
        (host.contains(":") ? "[\(host)]" : host) + ":" + String(port)
    }

    /// A wildcard bind address is not somewhere to send requests: use loopback for it.
    static func loopbackIfWildcard(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::", "[::]": "::1"
        default: host
        }
    }
}
