import Foundation
import Testing
@testable import CatFactsMock

@Suite("Hold and requests in flight")
struct HoldTests {
    /// GETs every path at once; the statuses, in the paths' order.
    private func together(_ server: MockServer, _ paths: [String]) async throws -> [Int] {
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (index, path) in paths.enumerated() {
                group.addTask { (index, try await MockHTTP.request(server, path).response.statusCode) }
            }
            var statuses = [Int](repeating: 0, count: paths.count)
            for try await (index, status) in group { statuses[index] = status }
            return statuses
        }
    }

    @Test("hold N lets requests go once N are in flight together; the stats say the peak")
    func released() async throws {
        try await MockHTTP.withMock({ $0.hold = 3 }) { server in
            #expect(try await MockHTTP.object(server, "/_mock/stats").json.string("hold") == "holding")
            #expect(try await together(server, ["/breeds?page=1", "/breeds?page=2", "/facts"]) == [200, 200, 200])
            let after = try await MockHTTP.request(server, "/fact").response.statusCode
            #expect(after == 200, "the gate stays open")
            let stats = try await MockHTTP.object(server, "/_mock/stats").json
            #expect(stats.int("peak_in_flight") == 3)
            #expect(stats.int("in_flight") == 0)
            #expect(stats.int("requests") == 4)
            #expect(stats.string("hold") == "released")
        }
    }

    @Test("hold-after lets the first requests pass unheld")
    func after() async throws {
        try await MockHTTP.withMock({ $0.hold = 2; $0.holdAfter = 1 }) { server in
            #expect(try await MockHTTP.request(server, "/breeds").response.statusCode == 200)
            #expect(try await together(server, ["/breeds?page=2", "/breeds?page=3"]) == [200, 200])
            let stats = try await MockHTTP.object(server, "/_mock/stats").json
            #expect(stats.int("peak_in_flight") == 2)
            #expect(stats.string("hold") == "released")
        }
    }

    @Test("a hold that never fills opens after its limit, and says so")
    func timedOut() async throws {
        try await MockHTTP.withMock({ $0.hold = 2; $0.holdLimit = .milliseconds(200) }) { server in
            let clock = ContinuousClock()
            var status = 0
            let elapsed = try await clock.measure {
                status = try await MockHTTP.request(server, "/breeds").response.statusCode
            }
            #expect(status == 200)
            #expect(elapsed >= .milliseconds(200))
            let stats = try await MockHTTP.object(server, "/_mock/stats").json
            #expect(stats.int("peak_in_flight") == 1)
            #expect(stats.string("hold") == "timed out")
        }
    }

    @Test("without a hold the stats say off, and a bad hold does not start")
    func off() async throws {
        try await MockHTTP.withMock { server in
            _ = try await MockHTTP.request(server, "/breeds")
            let stats = try await MockHTTP.object(server, "/_mock/stats").json
            #expect(stats.string("hold") == "off")
            #expect(stats.int("peak_in_flight") == 1)
        }
        var configuration = MockConfiguration()
        configuration.port = 0
        configuration.hold = 0
        await #expect(throws: MockServerError.invalidConfiguration("hold must be at least 1")) {
            _ = try await MockServer.start(configuration)
        }
    }
}
