import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPTransport`` over Foundation's `URLSession` (libcurl underneath on Linux).
///
/// The body streams through a delegate so a body over the size cap is cut off as it
/// arrives instead of being read into memory, and the total timeout is enforced here
/// because `URLSession`'s own request timeout only bounds idle time.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates a transport with its own `URLSession` (no shared cookies, no HTTP cache:
    /// caching is the client's job, so that it is counted and labelled).
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpMaximumConnectionsPerHost = 8
        delegate = SessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func send(_ request: HTTPRequest, limits: TransportLimits) async throws(CatFactsError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        urlRequest.timeoutInterval = limits.connectTimeout.seconds
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let task = session.dataTask(with: urlRequest)
        let exchange = Exchange(url: request.url.absoluteString, limits: limits)
        // URLSession's own timeout bounds idle time only; this bounds the whole exchange. A
        // dispatch timer, because a cancelled one is gone at once, where a cancelled
        // Task.sleep still holds memory until its deadline.
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { [weak task] in
            if let task { exchange.cancel(task, as: .timedOut) }
        }
        timer.schedule(deadline: .now() + limits.totalTimeout.seconds)
        timer.resume()
        defer { timer.cancel() }
        let result: Result<HTTPResponse, CatFactsError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.begin(continuation)
                delegate.register(exchange, for: task)
                if Task.isCancelled {
                    exchange.cancel(task, as: .cancelled)
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            exchange.cancel(task, as: .cancelled)
        }
        return try result.get()
    }
}

/// Routes the session's callbacks to the exchange of each task.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: Exchange]>([:])

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let exchange = exchange(for: dataTask) else { return completionHandler(.cancel) }
        if exchange.receive(response) {
            completionHandler(.allow)
        } else {
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(for: dataTask) else { return }
        if !exchange.append(data) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.finish(error)
    }
}

/// One request's state, from `resume()` to the continuation's single resumption.
private final class Exchange: Sendable {
    enum Interruption: Sendable { case cancelled, timedOut, tooLarge(Int) }

    private struct State {
        var continuation: CheckedContinuation<Result<HTTPResponse, CatFactsError>, Never>?
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var interruption: Interruption?
    }

    private let url: String
    private let limits: TransportLimits
    private let state = Mutex(State())

    init(url: String, limits: TransportLimits) {
        self.url = url
        self.limits = limits
    }

    func begin(_ continuation: CheckedContinuation<Result<HTTPResponse, CatFactsError>, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Records the response head; `false` when the declared length is already over the cap.
    func receive(_ response: URLResponse) -> Bool {
        state.withLock { state in
            state.response = response as? HTTPURLResponse
            let declared = response.expectedContentLength
            if declared > Int64(limits.maxBodyBytes) {
                state.interruption = .tooLarge(Int(declared))
                return false
            }
            if declared > 0 { state.body.reserveCapacity(Int(declared)) }
            return true
        }
    }

    /// Appends a part of the body; `false` once the body passes the cap.
    func append(_ data: Data) -> Bool {
        state.withLock { state in
            guard state.body.count + data.count <= limits.maxBodyBytes else {
                state.interruption = .tooLarge(state.body.count + data.count)
                return false
            }
            state.body.append(contentsOf: data)
            return true
        }
    }

    /// Cancels the task, remembering why, unless it has already finished.
    func cancel(_ task: URLSessionTask, as reason: Interruption) {
        let running = state.withLock { state -> Bool in
            guard state.continuation != nil, state.interruption == nil else { return false }
            state.interruption = reason
            return true
        }
        if running {
            task.cancel()
            // A task cancelled before it was resumed may never report completion.
            if case .cancelled = reason { finish(URLError(.cancelled)) }
        }
    }

    func finish(_ error: (any Error)?) {
        let (continuation, result) = state.withLock { state in
            let continuation = state.continuation
            state.continuation = nil
            return (continuation, outcome(of: state, error: error))
        }
        continuation?.resume(returning: result)
    }

    private func outcome(of state: State, error: (any Error)?) -> Result<HTTPResponse, CatFactsError> {
        switch state.interruption {
        case .cancelled: return .failure(.cancelled)
        case .timedOut: return .failure(.timeout(seconds: limits.totalTimeout.seconds, url: url))
        case .tooLarge(let size):
            return .failure(.decode("the body is larger than the \(limits.maxBodyBytes)-byte limit (\(size) bytes or more); raise max_body_bytes if this is expected", url: url))
        case nil: break
        }
        if let error {
            return .failure(Self.classify(error, url: url, idle: limits.connectTimeout))
        }
        guard let response = state.response else {
            return .failure(.network("no HTTP response", url: url))
        }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return .success(HTTPResponse(status: response.statusCode, headers: headers, body: state.body))
    }

    private static func classify(_ error: any Error, url: String, idle: Duration) -> CatFactsError {
        guard let urlError = error as? URLError else {
            return .network(String(describing: error), url: url)
        }
        switch urlError.code {
        case .timedOut:
            return .timeout(seconds: idle.seconds, url: url)
        case .cancelled:
            return .cancelled
        case .cannotConnectToHost:
            return .network("connection refused (is the server running?)", url: url)
        case .cannotFindHost, .dnsLookupFailed:
            return .network("host not found", url: url)
        case .notConnectedToInternet:
            return .network("not connected to the internet", url: url)
        case .networkConnectionLost:
            return .network("the connection was lost before the response was complete", url: url)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return .network("TLS failed: \(urlError.localizedDescription)", url: url)
        default:
            return .network(urlError.localizedDescription, url: url)
        }
    }
}
