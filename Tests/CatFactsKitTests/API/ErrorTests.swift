import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("Every error kind, over real loopback HTTP against the mock")
struct ErrorTests {
    private func failing(with fault: MockFault, _ configure: @escaping (inout MockConfiguration) -> Void = { _ in }) -> (inout MockConfiguration) -> Void {
        { configuration in
            configuration.failRate = 1
            configuration.faults = [fault]
            configure(&configuration)
        }
    }

    @Test func eachFrontNamesTheOptionToRaiseInItsOwnWords() {
        let deadline = CatFactsError.deadlinePassed(milliseconds: 500, attempts: 2, reason: "the last attempt had no answer yet",
                                                    url: "http://127.0.0.1:1/breeds")
        let said = "the call's deadline of 500 ms passed after 2 attempts to http://127.0.0.1:1/breeds: the last attempt had no answer yet"
        #expect(deadline.option == .deadline)
        #expect(deadline.description == said + "; raise deadline_ms to wait longer")
        #expect(deadline.description(naming: { $0 == .deadline ? "--timeout" : nil }) == said + "; raise --timeout to wait longer")
        let attempt = CatFactsError.timeout(seconds: 0.25, url: "http://127.0.0.1:1/fact")
        let slow = "timed out after 0.25 s waiting for http://127.0.0.1:1/fact; the server is slow or unreachable"
        #expect(attempt.option == .attemptTimeout)
        #expect(attempt.description == slow + " (raise timeout_ms to wait longer)")
        #expect(attempt.description(naming: { _ in nil }) == slow)
        #expect(CatFactsError.cancelled.option == nil && CatFactsError.argument("x").option == nil)
        #expect(CatFactsError.invalidOption(.retries, value: "-1", problem: "must be in 0..100").option == .retries)
    }

    @Test func aServerErrorIsHTTPWithTheServersMessage() async throws {
        try await withMock(failing(with: .serverError)) { client, server in
            let error = await caught { try await client.breeds() }
            #expect(error == .http(status: 500, message: "Server Error", url: "\(server.baseURL.absoluteString)/breeds?page=1"))
            #expect(error?.description == "HTTP 500 from \(server.baseURL.absoluteString)/breeds?page=1: Server Error")
        }
    }

    @Test func tooManyRequestsIsRateLimitedWithRetryAfter() async throws {
        try await withMock(failing(with: .rateLimited) { $0.retryAfterSeconds = 7 }) { client, server in
            let error = await caught { try await client.randomFact() }
            #expect(error == .rateLimited(retryAfter: 7, url: "\(server.baseURL.absoluteString)/fact"))
            #expect(error?.description.contains("retry after 7 s") == true)
        }
    }

    @Test func aResetConnectionIsANetworkError() async throws {
        try await withMock(failing(with: .reset)) { client, _ in
            let error = await caught { try await client.breeds() }
            #expect(error?.status == .network)
        }
    }

    @Test func aMalformedBodyIsADecodeError() async throws {
        try await withMock(failing(with: .malformed)) { client, _ in
            let error = await caught { try await client.breeds() }
            #expect(error?.status == .decode)
            #expect(error?.description.contains("is not valid JSON") == true)
        }
    }

    @Test func aTruncatedBodyIsADecodeErrorOrALostConnection() async throws {
        try await withMock(failing(with: .truncated)) { client, _ in
            let error = await caught { try await client.facts() }
            #expect(error?.status == .decode)
        }
    }

    @Test func aSlowBodyPastTheTimeoutIsATimeout() async throws {
        try await withMock(failing(with: .slow) { $0.slowBody = .seconds(5) },
                           options: { $0.limits.totalTimeout = .milliseconds(500) }) { client, _ in
            let start = ContinuousClock.now
            let error = await caught { try await client.breeds() }
            let elapsed = ContinuousClock.now - start
            guard case .timeout(let seconds, _)? = error else { Issue.record("expected a timeout, got \(String(describing: error))"); return }
            #expect(seconds == 0.5)
            #expect(elapsed < .seconds(5))  // at the timeout, sooner than the body's end
        }
    }

    @Test func aServerSilentPastTheIdleLimitIsATimeoutNamingThatLimit() async throws {
        // Nothing comes back for 5 s; the idle (connect) limit is 300 ms, the total 10 s.
        try await withMock({ $0.latency = .seconds(5) },
                           options: { $0.limits.connectTimeout = .milliseconds(300); $0.limits.totalTimeout = .seconds(10) }) { client, _ in
            let start = ContinuousClock.now
            let error = await caught { try await client.breeds() }
            let elapsed = ContinuousClock.now - start
            guard case .timeout(let seconds, _)? = error else { Issue.record("expected a timeout, got \(String(describing: error))"); return }
            #expect(seconds == 0.3)
            #expect(elapsed >= .milliseconds(300))
            #expect(elapsed < .seconds(5))  // at the idle limit, sooner than the answer
        }
    }

    @Test func aClosedPortIsANetworkErrorAtOnce() async throws {
        let port = try await closedPort()
        var options = ClientOptions(baseURL: "http://127.0.0.1:\(port)", retry: RetryPolicy(retries: 0))
        options.offlineAfterFailures = 1
        let client = try CatFactsClient(options: options)
        let start = ContinuousClock.now
        let error = await caught { try await client.breeds() }
        // Refused, not waited out: sooner than the 10 s connect limit.
        #expect(ContinuousClock.now - start < options.limits.connectTimeout)
        #expect(error == .network("connection refused (is the server running?)", url: "http://127.0.0.1:\(port)/breeds?page=1"))
        #expect(client.metrics.endpoints().first?.errors == 1)
        #expect(client.metrics.online == false)
    }

    @Test func anUnknownPathIsHTTP404() async throws {
        try await withMock { _, server in
            let client = try CatFactsClient(options: ClientOptions(baseURL: server.baseURL.absoluteString + "/nowhere"))
            let error = await caught { try await client.breeds() }
            guard case .http(404, _, let url, _)? = error else { Issue.record("expected HTTP 404, got \(String(describing: error))"); return }
            #expect(url == "\(server.baseURL.absoluteString)/nowhere/breeds?page=1")
        }
    }

    @Test func aBodyOverTheCapIsCutOffWithADecodeError() async throws {
        try await withMock(options: { $0.limits.maxBodyBytes = 4096 }) { client, _ in
            let error = await caught { try await client.breeds(page: 1, limit: 98) }
            #expect(error?.status == .decode)
            #expect(error?.description.contains("larger than the 4096-byte limit") == true)
            // The same cap lets a small page through.
            let small = try await client.breeds(page: 1, limit: 2)
            #expect(small.items.count == 2)
        }
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        try await withMock({ $0.latency = .seconds(5) }) { client, server in
            let start = ContinuousClock.now
            let task = Task { await caught { try await client.breeds() } }
            try await waitUntil { server.requestCount() == 1 }  // the request is out, its answer 5 s away
            task.cancel()
            let error = await task.value
            #expect(error == .cancelled)
            #expect(ContinuousClock.now - start < .seconds(5))  // sooner than the answer
        }
    }
}
