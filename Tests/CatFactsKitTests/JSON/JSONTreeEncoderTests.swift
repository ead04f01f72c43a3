@testable import CatFactsKit
import Foundation
import Testing

@Suite("JSONTreeEncoder: the bytes JSONEncoder gives, for any Encodable")
struct JSONTreeEncoderTests {
    struct Inner: Encodable { let name: String; let values: [Double]; let flag: Bool? }
    struct Outer: Encodable {
        let zeta = 1
        let alpha: String? = nil
        let Beta = "slash / and \u{1} and \"quote\" and é 🐈"
        let numbers: [Int64] = [Int64.min, -1, 0, Int64.max]
        let unsigned: UInt64 = .max
        let doubles = [0.0, -0.0, 1.5, 2.0, 1e-7, 123_456_789.125, 1e21, 0.1, -3.25e300]
        let float: Float = 0.5
        let nested = [Inner(name: "a", values: [], flag: nil), Inner(name: "", values: [1, 2.5], flag: false)]
        let map = ["b": 2, "a": 1, "ä": 3, "A": 0]
        let empty: [String: Int] = [:]
        let nothing: [Int] = []
        let deep: [[String?]] = [[nil, "x"], []]
    }

    private func foundation<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func everyShapeOfValueMatchesFoundation() throws {
        #expect(try JSONTreeEncoder.text(Outer()) == foundation(Outer()))
        #expect(try JSONTreeEncoder.text([1, 2]) == foundation([1, 2]))
        #expect(try JSONTreeEncoder.text("top") == foundation("top"))
        #expect(try JSONTreeEncoder.text(["k": [String: Int]()]) == foundation(["k": [String: Int]()]))
    }

    @Test func theOTLPRequestsMatchFoundation() throws {
        let server = ServerIdentity(baseURL: try #require(WebAddress(string: "http://127.0.0.1:8106")))
        let trace = CallTrace(endpoint: "/breeds", context: nil)
        let attempt = trace.beginAttempt()
        trace.end(attempt.spanID, status: 503, error: .http(status: 503, message: "busy / \"now\"", url: "u"), seconds: 0.01)
        let spans = trace.spans(failure: .http(status: 503, message: "busy", url: "u"), server: server)
        let request = OTLPTraceRequest(resource: OTLPResource(attributes: [OTLPAttribute("a", .string("b"))]), spans: spans)
        #expect(try JSONTreeEncoder.text(request) == foundation(request))
        #expect(request.json() == (try foundation(request)))
    }

    /// Large arrays and objects, and a keyed container asked for the same key twice and for a
    /// nested container after a sibling: members and elements accumulate on their node.
    @Test func largeAndReopenedContainersMatchFoundation() throws {
        let array = (0..<20_000).map { $0 * 7 }
        let object = Dictionary(uniqueKeysWithValues: (0..<5_000).map { ("k\($0)", [$0, -$0]) })
        #expect(try JSONTreeEncoder.text(array) == foundation(array))
        #expect(try JSONTreeEncoder.text(object) == foundation(object))
        struct Reopened: Encodable {
            enum Key: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Key.self)
                try first.encode(1, forKey: .a)
                var list = first.nestedUnkeyedContainer(forKey: .b)
                try list.encode("x")
                var second = encoder.container(keyedBy: Key.self)
                try second.encode(2, forKey: .a)
                try list.encode("y")
            }
        }
        #expect(try JSONTreeEncoder.text(Reopened()) == #"{"a":2,"b":["x","y"]}"#)
        #expect(try JSONTreeEncoder.text(Reopened()) == foundation(Reopened()))
    }

    @Test func aNonFiniteNumberIsRefusedAsFoundationRefusesIt() {
        #expect(throws: EncodingError.self) { try JSONTreeEncoder.text([Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONTreeEncoder.text(["x": Double.infinity]) }
        #expect(JSONOutput.encoded([Double.nan]) == "{}")
    }
}

@Suite("JSONValue: a small document read whole, strictly (RFC 8259)")
struct JSONValueTests {
    @Test func valuesOfEveryKind() throws {
        let text = #"{"a": [1, -2, 3.5, 1e3, 2500.0, 9223372036854775807, 9223372036854775808, -1e-2], "b": {"c": null, "d": true, "e": false}, "s": "x\u00e9\n", "a2": [], "s": 1}"#
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(value == .object([
            "a": .array([.integer(1), .integer(-2), .number(3.5), .integer(1000), .integer(2500), .integer(.max),
                         .number(9_223_372_036_854_775_808), .number(-0.01)]),
            "b": .object(["c": .null, "d": .bool(true), "e": .bool(false)]), "s": .string("xé\n"), "a2": .array([]),
        ]))
    }

    @Test(arguments: ["", "{", "{\"a\" 1}", "{\"a\": 1, \"a\": [}", "{a: 1}", "[1,]", "{\"a\": 1} x", "nul", "01", "\"\\x\"", "{\"a\":}"])
    func badSyntaxIsADecodeFailure(text: String) {
        #expect(throws: DecodeFailure.self) { try JSONValue.parse(Array(text.utf8)) }
    }

    @Test func nestingPastTheScannersLimitIsRefused() {
        let deep = String(repeating: "[", count: JSONScanner.maxDepth + 1) + String(repeating: "]", count: JSONScanner.maxDepth + 1)
        #expect(throws: DecodeFailure.self) { try JSONValue.parse(Array(deep.utf8)) }
    }
}
