import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import CatFactsMock

/// Real HTTP over loopback to an in-process mock, without any client-side caching (so
/// `If-None-Match` and 304 reach the test as they are).
enum MockHTTP {
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.timeoutIntervalForRequest = 20
        return URLSession(configuration: configuration)
    }()

    /// Starts a mock on a free port, runs `body` against it, stops it.
    static func withMock<T>(_ configure: (inout MockConfiguration) -> Void = { _ in },
                            _ body: (MockServer) async throws -> T) async throws -> T {
        var configuration = MockConfiguration()
        configuration.port = 0
        configure(&configuration)
        let server = try await MockServer.start(configuration)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Sends `method` to `pathAndQuery` (e.g. `/breeds?page=2`).
    static func request(_ server: MockServer, _ pathAndQuery: String, method: String = "GET",
                        headers: [String: String] = [:]) async throws -> (body: Data, response: HTTPURLResponse) {
        try await request(url: try #require(URL(string: server.baseURL.absoluteString + pathAndQuery)),
                          method: method, headers: headers)
    }

    /// Sends `method` to `url`.
    static func request(url: URL, method: String = "GET",
                        headers: [String: String] = [:]) async throws -> (body: Data, response: HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    /// GETs `pathAndQuery` and parses the JSON object it answers.
    static func object(_ server: MockServer, _ pathAndQuery: String) async throws -> (json: [String: Any], text: String, status: Int) {
        let (body, response) = try await request(server, pathAndQuery)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        return (json, String(decoding: body, as: UTF8.self), response.statusCode)
    }
}

extension Dictionary where Key == String, Value == Any {
    func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue }
    func string(_ key: String) -> String? { self[key] as? String }
    func objects(_ key: String) -> [[String: Any]] { self[key] as? [[String: Any]] ?? [] }
    func isNull(_ key: String) -> Bool { self[key] is NSNull }
}
