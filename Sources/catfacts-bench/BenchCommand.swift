import ArgumentParser
import CatFactsKit
import CatFactsMock
import Foundation

/// `catfacts-bench`: benchmarks run by `make bench` (bench/run writes BENCHMARKS.md).
/// Each prints one JSON object on stdout, so the runner can tabulate it.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catfacts-bench",
        abstract: "CatFacts benchmarks; each prints one JSON object.",
        subcommands: [ScrollBench.self, WalkBench.self, SearchBench.self, LiveSearchBench.self, DecodeBench.self, LockBench.self])
}

/// Runs `body` with a client of the mock at `baseURL`, or, when it is `nil`, of a mock started
/// in-process with `breeds` synthetic rows and `latencyMs` latency (stopped afterwards).
/// An out-of-process mock keeps the server's memory and CPU out of the figures.
/// `cacheMaxBytes` sets the client's cache cap (`nil`: the library's default).
func withBenchMock<T>(baseURL: String?, breeds: Int, latencyMs: Int, cacheMaxBytes: Int? = nil,
                      _ body: (CatFactsClient) async throws -> T) async throws -> T {
    func client(_ url: String) throws -> CatFactsClient {
        var options = ClientOptions(baseURL: url)
        options.cacheMaxBytes = cacheMaxBytes
        return try CatFactsClient(options: options)
    }
    if let baseURL {
        return try await body(try client(baseURL))
    }
    var configuration = MockConfiguration()
    configuration.port = 0
    configuration.breeds = breeds
    configuration.latency = .milliseconds(latencyMs)
    let server = try await MockServer.start(configuration)
    do {
        let result = try await body(try client(server.baseURL.absoluteString))
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Prints `fields` as one line of JSON with sorted keys.
func report(_ fields: [String: Double]) {
    let pairs = fields.sorted { $0.key < $1.key }.map { key, value in
        let number = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.3f", value)
        return "\"\(key)\":\(number)"
    }
    print("{" + pairs.joined(separator: ",") + "}")
}
