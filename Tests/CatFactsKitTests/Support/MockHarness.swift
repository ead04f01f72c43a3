import CatFactsKit
import CatFactsMock
import Foundation

/// Starts the mock on a free loopback port, runs `body` with a client pointed at it (no
/// retries unless `options` sets them), stops the mock.
func withMock<T>(
    _ configure: (inout MockConfiguration) -> Void = { _ in },
    options: (inout ClientOptions) -> Void = { _ in },
    transport: (any HTTPTransport)? = nil,
    _ body: (CatFactsClient, MockServer) async throws -> T
) async throws -> T {
    var configuration = MockConfiguration()
    configuration.port = 0
    configure(&configuration)
    let server = try await MockServer.start(configuration)
    do {
        // No retries and no read-ahead unless a test asks: most tests check what one request does.
        var clientOptions = ClientOptions(baseURL: server.baseURL.absoluteString, retry: RetryPolicy(retries: 0))
        clientOptions.readAhead = 0
        options(&clientOptions)
        let client = try CatFactsClient(options: clientOptions, transport: transport)
        let result = try await body(client, server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// The error `body` throws, or `nil` when it succeeds. Any error that is not a
/// `CatFactsError` is itself a failure: the library promises to throw nothing else.
func caught<T>(_ body: () async throws -> T) async -> CatFactsError? {
    do {
        _ = try await body()
        return nil
    } catch let error as CatFactsError {
        return error
    } catch {
        return .internal("not a CatFactsError: \(error)")
    }
}

/// A loopback port nothing listens on: the mock's, after it stopped.
func closedPort() async throws -> Int {
    var configuration = MockConfiguration()
    configuration.port = 0
    let server = try await MockServer.start(configuration)
    let port = server.port
    await server.stop()
    return port
}
