import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import CatFactsMock

@Suite("Faults, latency and counts")
struct FaultTests {
    private func faulted(_ fault: MockFault, _ configure: @escaping (inout MockConfiguration) -> Void = { _ in },
                         _ body: (MockServer) async throws -> Void) async throws {
        try await MockHTTP.withMock({ configuration in
            configuration.failRate = 1
            configuration.faults = [fault]
            configure(&configuration)
        }, body)
    }

    @Test("500 is a server error")
    func serverError() async throws {
        try await faulted(.serverError) { server in
            let (body, response) = try await MockHTTP.request(server, "/breeds")
            #expect(response.statusCode == 500)
            #expect(String(decoding: body, as: UTF8.self) == #"{"message":"Server Error"}"#)
        }
    }

    @Test("429 says when to retry")
    func rateLimited() async throws {
        try await faulted(.rateLimited, { $0.retryAfterSeconds = 7 }) { server in
            let (body, response) = try await MockHTTP.request(server, "/facts")
            #expect(response.statusCode == 429)
            #expect(response.value(forHTTPHeaderField: "Retry-After") == "7")
            #expect(String(decoding: body, as: UTF8.self) == #"{"message":"Too Many Attempts."}"#)
        }
    }

    @Test("reset drops the connection: a network error, no status")
    func reset() async throws {
        try await faulted(.reset) { server in
            let error = await #expect(throws: URLError.self) {
                _ = try await MockHTTP.request(server, "/breeds?limit=100")
            }
            #expect(error?.code != .timedOut)
            #expect(server.requestCount() == 1, "the client did not retry behind our back")
        }
    }

    @Test("malformed is a 200 that is not JSON")
    func malformed() async throws {
        try await faulted(.malformed) { server in
            let (body, response) = try await MockHTTP.request(server, "/breeds")
            #expect(response.statusCode == 200)
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: body) }
            #expect(String(decoding: body, as: UTF8.self).contains("<html"))
        }
    }

    @Test("truncated is a 200 whose JSON stops half-way")
    func truncated() async throws {
        try await faulted(.truncated) { server in
            let (body, response) = try await MockHTTP.request(server, "/breeds")
            #expect(response.statusCode == 200)
            #expect(body.count > 100)
            #expect(String(decoding: body, as: UTF8.self).hasPrefix(#"{"current_page":1,"data":["#))
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: body) }
        }
    }

    @Test("slow sends the correct body over slowBody")
    func slow() async throws {
        try await faulted(.slow, { $0.slowBody = .milliseconds(300) }) { server in
            let clock = ContinuousClock()
            var status = 0
            var json: Any?
            let elapsed = try await clock.measure {
                let (body, response) = try await MockHTTP.request(server, "/breeds?limit=3")
                status = response.statusCode
                json = try JSONSerialization.jsonObject(with: body)
            }
            #expect(status == 200)
            #expect((json as? [String: Any])?.objects("data").count == 3)
            #expect(elapsed >= .milliseconds(280))
        }
    }

    @Test("latency delays every response")
    func latency() async throws {
        try await MockHTTP.withMock({ $0.latency = .milliseconds(50) }) { server in
            let clock = ContinuousClock()
            for _ in 0..<2 {
                let elapsed = try await clock.measure { _ = try await MockHTTP.request(server, "/fact") }
                #expect(elapsed >= .milliseconds(50))
            }
        }
    }

    @Test("failFirst faults the first requests, then serves")
    func failFirst() async throws {
        try await MockHTTP.withMock({ $0.failFirst = 2 }) { server in
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await MockHTTP.request(server, "/breeds").response.statusCode) }
            #expect(statuses == [500, 500, 200])
        }
    }

    @Test("faults are taken in turn")
    func roundRobin() async throws {
        try await MockHTTP.withMock({ $0.failRate = 1; $0.faults = [.rateLimited, .serverError] }) { server in
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await MockHTTP.request(server, "/facts").response.statusCode) }
            #expect(statuses == [429, 500, 429, 500])
        }
    }

    @Test("a seeded fail rate repeats, and roughly honours the rate")
    func seededFailRate() async throws {
        func run() async throws -> [Int] {
            try await MockHTTP.withMock({ $0.failRate = 0.5; $0.seed = 7 }) { server in
                var statuses: [Int] = []
                for _ in 0..<20 { statuses.append(try await MockHTTP.request(server, "/fact").response.statusCode) }
                return statuses
            }
        }
        let first = try await run()
        #expect(try await run() == first)
        #expect((3...17).contains(first.filter { $0 == 500 }.count))
    }

    @Test("ETag and If-None-Match make a 304")
    func conditional() async throws {
        try await MockHTTP.withMock { server in
            let (_, first) = try await MockHTTP.request(server, "/breeds?page=2")
            let etag = try #require(first.value(forHTTPHeaderField: "ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 18)
            #expect(first.value(forHTTPHeaderField: "Cache-Control") == "no-cache, private")
            let (body, second) = try await MockHTTP.request(server, "/breeds?page=2", headers: ["If-None-Match": etag])
            #expect(second.statusCode == 304)
            #expect(body.isEmpty)
            let (_, other) = try await MockHTTP.request(server, "/breeds?page=3", headers: ["If-None-Match": etag])
            #expect(other.statusCode == 200)
        }
    }

    @Test("requests are counted per path, faults included")
    func counts() async throws {
        try await MockHTTP.withMock({ $0.failFirst = 1 }) { server in
            _ = try await MockHTTP.request(server, "/breeds")
            _ = try await MockHTTP.request(server, "/breeds?page=2")
            _ = try await MockHTTP.request(server, "/facts")
            _ = try await MockHTTP.request(server, "/nowhere")
            #expect(server.requestCount() == 4)
            #expect(server.requestCount(path: "/breeds") == 2)
            #expect(server.requestCount(path: "/facts") == 1)
            #expect(server.requestCount(path: "/fact") == 0)
            #expect(server.requestCount(path: "/nowhere") == 1)
        }
    }

    @Test("stop is idempotent and a bad configuration does not start")
    func lifecycle() async throws {
        var configuration = MockConfiguration()
        configuration.port = 0
        let server = try await MockServer.start(configuration)
        #expect(server.port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        await server.stop()
        await server.stop()
        configuration.failRate = 2
        await #expect(throws: MockServerError.self) { _ = try await MockServer.start(configuration) }
        configuration.failRate = 0
        configuration.port = server.port
        let taken = try await MockServer.start({ var c = MockConfiguration(); c.port = 0; return c }())
        configuration.port = taken.port
        await #expect(throws: MockServerError.self) { _ = try await MockServer.start(configuration) }
        await taken.stop()
    }
}
