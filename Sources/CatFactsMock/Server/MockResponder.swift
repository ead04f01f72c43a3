import CatFactsKit
import Foundation
import Hummingbird

/// Answers every request: counts it, waits out the configured latency, then sends the
/// route's reply, or the fault chosen for it.
struct MockResponder: HTTPResponder {
    typealias Context = MockRequestContext

    let routes: MockRoutes
    let traffic: MockTraffic
    let configuration: MockConfiguration

    func respond(to request: Request, context: Context) async throws -> Response {
        if configuration.logRequests { RequestLog.write(request) }
        let path = Self.normalise(request.uri.path)
        let decision = traffic.admit(path: path)
        if decision.delay > .zero {
            try await Task.sleep(for: decision.delay)
        }
        switch decision.fault {
        case .serverError:
            return Self.response(.message(.internalServerError, "Server Error"))
        case .rateLimited:
            var reply = MockReply.message(.tooManyRequests, "Too Many Attempts.")
            reply.headers[.retryAfter] = retryAfter()
            return Self.response(reply)
        case .unavailable:
            var reply = MockReply.message(.serviceUnavailable, "Service Unavailable")
            reply.headers[.retryAfter] = retryAfter()
            return Self.response(reply)
        default:
            break
        }
        let reply = routes.reply(method: request.method, path: path, query: request.uri.queryParameters,
                                 origin: origin(of: request, context: context), random: decision.random)
        switch decision.fault {
        case .reset: return FaultResponses.reset(reply)
        case .malformed: return FaultResponses.malformed()
        case .truncated: return FaultResponses.truncated(reply)
        case .slow: return FaultResponses.slow(reply, over: configuration.slowBody)
        default: return Self.conditionalResponse(reply, ifNoneMatch: request.headers[values: .ifNoneMatch])
        }
    }

    /// `Retry-After`: seconds, or the IMF-fixdate that many seconds ahead (rounded up to the
    /// next whole second, so it never means less than asked).
    private func retryAfter() -> String {
        guard configuration.retryAfterAsDate else { return String(configuration.retryAfterSeconds) }
        let at = Date(timeIntervalSince1970: (Date.now.timeIntervalSince1970 + Double(configuration.retryAfterSeconds)).rounded(.up))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: at)
    }

    /// `scheme://host[:port]` for page URLs: the request's `Host`, else where it arrived.
    private func origin(of request: Request, context: Context) -> String {
        if let authority = request.head.authority, !authority.isEmpty {
            return "http://" + authority
        }
        let port = context.localPort ?? configuration.port
        return "http://" + MockServer.authority(host: configuration.host, port: port)
    }

    /// `/breeds/` is `/breeds`, as Laravel routes it.
    static func normalise(_ path: String) -> String {
        guard path.count > 1, path.hasSuffix("/") else { return path }
        return String(path.dropLast())
    }

    /// Headers every reply carries, as Laravel sends them.
    static func headers(for reply: MockReply) -> HTTPFields {
        var headers = reply.headers
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-cache, private"
        return headers
    }

    /// The reply as is.
    static func response(_ reply: MockReply) -> Response {
        Response(status: reply.status, headers: headers(for: reply),
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
    }

    /// The reply with a strong `ETag` when it is a 200, or a bodiless 304 when the client
    /// already holds that body (`If-None-Match`).
    static func conditionalResponse(_ reply: MockReply, ifNoneMatch: [String]) -> Response {
        guard reply.status == .ok else { return response(reply) }
        let etag = FNV1a.etag(reply.body)
        var headers = headers(for: reply)
        headers[.eTag] = etag
        if Self.matches(etag, ifNoneMatch) {
            var notModified = Response(status: .notModified, headers: headers)
            notModified.headers[.contentType] = nil
            notModified.headers[.contentLength] = nil
            return notModified
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
    }

    /// `If-None-Match` uses weak comparison: `*`, or any listed tag equal once `W/` is dropped.
    static func matches(_ etag: String, _ values: [String]) -> Bool {
        for value in values {
            for candidate in value.split(separator: ",") {
                var tag = candidate.trimmingSpaces
                if tag == "*" { return true }
                if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
                if tag == etag { return true }
            }
        }
        return false
    }
}
