@testable import CatFactsKit
import Foundation

/// A transport that answers from a script and remembers what it was asked.
final class ScriptedTransport: HTTPTransport {
    private let answers: Locked<[Result<HTTPResponse, CatFactsError>]>
    private let sent = Locked<[HTTPRequest]>([])

    /// Answers `responses` in turn; the last one repeats.
    init(_ responses: [Result<HTTPResponse, CatFactsError>]) {
        answers = Locked(responses)
    }

    /// Answers every request with `status` and `body`.
    convenience init(status: Int = 200, headers: [String: String] = [:], body: String) {
        self.init([.success(HTTPResponse(status: status, headers: headers, body: Array(body.utf8)))])
    }

    var requests: [HTTPRequest] { sent.withLock { $0 } }

    func send(_ request: HTTPRequest, limits: TransportLimits) async throws(CatFactsError) -> HTTPResponse {
        sent.withLock { $0.append(request) }
        let answer = answers.withLock { answers in
            answers.count > 1 ? answers.removeFirst() : answers[0]
        }
        return try answer.get()
    }
}

/// Wraps a transport and adds up the body bytes it brought back.
final class ByteCountingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let total = Locked(0)

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var bytes: Int { total.withLock { $0 } }

    func send(_ request: HTTPRequest, limits: TransportLimits) async throws(CatFactsError) -> HTTPResponse {
        let response = try await inner.send(request, limits: limits)
        total.withLock { $0 += response.body.count }
        return response
    }
}
