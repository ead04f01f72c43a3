import CatFactsKit
import Foundation
import Hummingbird

/// Answers every request: counts it (and holds it, with ``MockConfiguration/hold``), waits
/// out the configured latency, then sends the route's reply, or the fault chosen for it.
/// Pages come from ``RenderedPages`` once rendered; `/_mock/stats` answers at once.
struct MockResponder: HTTPResponder {
    typealias Context = MockRequestContext

    let routes: MockRoutes
    let traffic: MockTraffic
    let gauge: InFlightGauge
    let pages: RenderedPages
    let configuration: MockConfiguration

    func respond(to request: Request, context: Context) async throws -> Response {
        if configuration.logRequests { RequestLog.write(request) }
        let path = Self.normalise(request.uri.path)
        if path == MockStats.path {
            return Self.response(MockStats.reply(traffic: traffic, gauge: gauge, pages: pages))
        }
        await gauge.enter()
        defer { gauge.leave() }
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
        let rendered = render(request, path: path, context: context, random: decision.random)
        switch decision.fault {
        case .reset: return FaultResponses.reset(rendered.reply)
        case .malformed: return FaultResponses.malformed()
        case .truncated: return FaultResponses.truncated(rendered.reply)
        case .slow: return FaultResponses.slow(rendered.reply, over: configuration.slowBody)
        default: return Self.conditionalResponse(rendered, ifNoneMatch: request.headers[values: .ifNoneMatch])
        }
    }

    /// The route's reply: a page (GET or HEAD of `/breeds` or `/facts`) as rendered the
    /// first time it was asked, anything else made now.
    private func render(_ request: Request, path: String, context: Context, random: UInt64) -> RenderedReply {
        let origin = origin(of: request, context: context)
        let make = {
            routes.reply(method: request.method, path: path, query: request.uri.queryParameters, origin: origin, random: random)
        }
        guard request.method == .get || request.method == .head, MockRoutes.pagePaths.contains(path) else {
            return RenderedReply(make())
        }
        return pages.reply(for: RenderedPages.Key(path: path, query: request.uri.query ?? "", origin: origin), render: make)
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

    /// The reply with its strong `ETag` when it is a 200, or a bodiless 304 when the client
    /// already holds that body (`If-None-Match`).
    static func conditionalResponse(_ rendered: RenderedReply, ifNoneMatch: [String]) -> Response {
        let reply = rendered.reply
        guard let etag = rendered.etag else { return response(reply) }
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
