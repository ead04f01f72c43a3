import CatFactsKit
import CatFactsMock
import Foundation
import Testing

/// Every mock fault and a dead server, with a page already cached: the stale page, labelled
/// as such, or the decode error (a body that does not decode is never hidden). A slow body
/// (2 s) meets the 1 s timeout: the stale page shows the call did not wait for the body. The
/// same matrix runs in the C, Python and shell suites.
@Suite("The fault matrix, answered from the cache")
struct FaultMatrixTests {
    enum Expected: Sendable { case stale, decodeError }

    static let matrix: [(MockFault?, Expected)] = [
        (.serverError, .stale), (.rateLimited, .stale), (.reset, .stale), (.slow, .stale),
        (.malformed, .decodeError), (.truncated, .decodeError), (nil, .stale),  // nil: a dead server
    ]

    @Test(arguments: matrix.indices)
    func aCachedPageAnswersOrTheErrorIsRight(_ row: Int) async throws {
        let (fault, expected) = Self.matrix[row]
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let good = try await startMock()
            let cached = try await cachingClient(good.baseURL) { $0.cachePath = path }.facts(page: 1, limit: 5)
            await good.stop()

            // The same server (its address: the cache's key), now faulty or gone.
            var faulty: MockServer?
            if let fault {
                faulty = try await startMock(port: good.port) { $0.failRate = 1; $0.faults = [fault] }
                #expect(faulty?.baseURL == good.baseURL)
            }
            let client = try cachingClient(good.baseURL) {
                $0.cachePath = path
                $0.cacheTTL = .zero
                $0.limits.totalTimeout = .seconds(1)
            }
            let outcome = await Result(catching: { () async throws(CatFactsError) in try await client.facts(page: 1, limit: 5) })
            switch (expected, outcome) {
            case (.stale, .success(let page)):
                #expect(page.source == .cache)
                #expect(page.items == cached.items)
                #expect(page.fetchedAt.timeIntervalSince1970.rounded() == cached.fetchedAt.timeIntervalSince1970.rounded())
            case (.decodeError, .failure(let error)):
                #expect(error.status == .decode)
            default:
                Issue.record("\(fault.map(\.rawValue) ?? "dead server"): expected \(expected), got \(outcome)")
            }
            await faulty?.stop()
        }
    }
}

extension Result where Failure == CatFactsError {
    /// The outcome of `body`, value or typed error.
    init(catching body: () async throws(CatFactsError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
