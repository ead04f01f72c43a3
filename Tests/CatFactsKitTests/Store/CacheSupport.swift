import CatFactsKit
import CatFactsMock
import Foundation

/// A fresh folder under the temporary directory, removed when `body` ends.
func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catfacts-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// A client on `url` with no retries, and the cache options `configure` sets.
func cachingClient(_ url: URL, _ configure: (inout ClientOptions) -> Void = { _ in }) throws -> CatFactsClient {
    var options = ClientOptions(baseURL: url.absoluteString, retry: RetryPolicy(retries: 0))
    options.readAhead = 0  // as withMock: a test counts the requests it makes
    configure(&options)
    return try CatFactsClient(options: options)
}

/// Starts a mock on a free port (or `port`), configured by `configure`.
func startMock(port: Int = 0, _ configure: (inout MockConfiguration) -> Void = { _ in }) async throws -> MockServer {
    var configuration = MockConfiguration()
    configuration.port = port
    configure(&configuration)
    return try await MockServer.start(configuration)
}

/// The files in `folder` whose names contain `part`.
func files(in folder: URL, containing part: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains(part) }
}

extension CatFactsClient {
    /// Cache hits recorded for `endpoint`.
    func cacheHits(_ endpoint: Endpoint = .breeds) -> Int {
        metrics.endpoints().first { $0.endpoint == endpoint.path }?.cacheHits ?? 0
    }
}
