import Foundation
import Testing
@testable import CatFactsMock

@Suite("Fault order")
struct FaultOrderTests {
    /// The statuses of `count` requests to a mock that fails every one with a 429 or a 500.
    private func statuses(_ order: MockFaultOrder, seed: UInt64, count: Int) async throws -> [Int] {
        try await MockHTTP.withMock({ configuration in
            configuration.failRate = 1
            configuration.faults = [.rateLimited, .serverError]
            configuration.faultOrder = order
            configuration.seed = seed
        }) { server in
            var statuses: [Int] = []
            for _ in 0..<count { statuses.append(try await MockHTTP.request(server, "/facts").response.statusCode) }
            return statuses
        }
    }

    @Test("in turn is the default")
    func turnIsTheDefault() {
        #expect(MockConfiguration().faultOrder == .turn)
    }

    @Test("random draws each fault on its own: both kinds, the same kind twice in a row")
    func randomInterleaves() async throws {
        let drawn = try await statuses(.random, seed: 11, count: 40)
        #expect(Set(drawn) == [429, 500])
        #expect(zip(drawn, drawn.dropFirst()).contains { $0 == $1 }, "\(drawn) only alternates, as in turn would")
    }

    @Test("a seed repeats the random draws")
    func seededRandomRepeats() async throws {
        let first = try await statuses(.random, seed: 5, count: 20)
        #expect(try await statuses(.random, seed: 5, count: 20) == first)
    }
}
