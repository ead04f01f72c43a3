import CatFactsKit
import Hummingbird

/// The responses that carry a body-level fault: a dropped connection, a non-JSON page, a
/// JSON document cut in half, a body that trickles.
enum FaultResponses {
    /// Thrown from inside a response body to make Hummingbird drop the connection.
    struct ConnectionReset: Error {}

    /// Announces the whole body (`Content-Length`), sends the head and half the body, then
    /// throws: Hummingbird treats a throwing body as a broken connection and closes the
    /// channel. The client, short of the promised bytes, sees a network error, never a
    /// complete response. (Closing before any byte is sent instead would let HTTP clients
    /// silently retry the request on a fresh connection.)
    static func reset(_ reply: MockReply) -> Response {
        let body = reply.body
        return Response(
            status: reply.status, headers: MockResponder.headers(for: reply),
            body: ResponseBody(contentLength: body.count) { writer in
                try await writer.write(ByteBuffer(bytes: body[..<(body.count / 2)]))
                throw ConnectionReset()
            })
    }

    /// A 200 whose body is an HTML error page, as a captive portal or a confused proxy sends.
    static func malformed() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=UTF-8"
        headers[.cacheControl] = "no-cache, private"
        return Response(status: .ok, headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(string: malformedPage)))
    }

    /// The reply's status with the first half of its JSON body, sent chunked and ended
    /// cleanly: the client gets a complete HTTP response holding a broken document.
    static func truncated(_ reply: MockReply) -> Response {
        let body = reply.body
        var headers = MockResponder.headers(for: reply)
        headers[.contentLength] = nil
        return Response(
            status: reply.status, headers: headers,
            body: ResponseBody(contentLength: nil) { writer in
                try await writer.write(ByteBuffer(bytes: body[..<(body.count / 2)]))
                try await writer.finish(nil)
            })
    }

    /// The reply, correct and complete, its body in ten chunks each sent after a tenth of
    /// `duration`.
    static func slow(_ reply: MockReply, over duration: Duration) -> Response {
        let body = reply.body
        let chunks = 10
        let pause = duration / chunks
        var headers = MockResponder.headers(for: reply)
        if reply.status == .ok { headers[.eTag] = FNV1a.etag(body) }
        return Response(
            status: reply.status, headers: headers,
            body: ResponseBody(contentLength: body.count) { writer in
                for chunk in 0..<chunks {
                    try await Task.sleep(for: pause)
                    let range = (body.count * chunk / chunks)..<(body.count * (chunk + 1) / chunks)
                    if !range.isEmpty { try await writer.write(ByteBuffer(bytes: body[range])) }
                }
                try await writer.finish(nil)
            })
    }

    private static let malformedPage = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Service Unavailable</title></head>
        <body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p></body>
        </html>

        """
}
