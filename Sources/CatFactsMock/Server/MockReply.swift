import Hummingbird

/// A route's answer before faults and conditional requests are applied: a status and a
/// complete JSON body.
struct MockReply {
    var status: HTTPResponse.Status
    var body: [UInt8]
    /// Headers beyond the ones every reply gets (`Allow` on a 405, `Retry-After` on a 429).
    var headers: HTTPFields = [:]

    /// Laravel's `{"message":"…"}` error shape.
    static func message(_ status: HTTPResponse.Status, _ message: String) -> MockReply {
        var json = PHPJSONWriter()
        json.raw("{\"message\":")
        json.string(message)
        json.raw("}")
        return MockReply(status: status, body: json.bytes)
    }
}
