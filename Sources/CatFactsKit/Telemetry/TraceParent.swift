/// A W3C Trace Context `traceparent` value (`00-<trace id>-<parent id>-<flags>`): the trace a
/// host is in and the span that is the parent of the client's calls
/// (``CatFactsClient/setTraceParent(_:)``, `cf_client_set_trace_parent`).
public struct TraceParent: Sendable, Equatable {
    /// 32 lowercase hex digits, not all zero.
    public let traceID: String
    /// 16 lowercase hex digits, not all zero: the host's span, parent of the client's call spans.
    public let parentID: String
    /// The trace flags (bit 0: sampled).
    public let flags: UInt8

    /// The length of a version-00 value: `00-` + 32 + `-` + 16 + `-` + 2.
    static let length = 55

    /// Parses `text` as the W3C recommendation (level 1) reads it.
    ///
    /// - Throws: ``CatFactsError/argument(_:)`` naming what is wrong: the length, a field that
    ///   is not lowercase hex, an all-zero id, the forbidden version `ff`.
    public init(parsing text: String) throws(CatFactsError) {
        let bytes = Array(text.utf8)
        func refuse(_ why: String) -> CatFactsError {
            .argument("traceparent '\(QuotedValue.shown(text))' is not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>): \(why)")
        }
        guard bytes.count >= 2, Self.isLowerHex(bytes[0..<2]) else { throw refuse("the version is not 2 lowercase hex digits") }
        let version = String(decoding: bytes[0..<2], as: UTF8.self)
        guard version != "ff" else { throw refuse("version ff is forbidden") }
        // A later version may append fields after a dash; version 00 has exactly these.
        guard version == "00" ? bytes.count == Self.length : (bytes.count == Self.length || (bytes.count > Self.length && bytes[Self.length] == UInt8(ascii: "-"))) else {
            throw refuse("it is \(bytes.count) characters long, expected \(Self.length)")
        }
        guard bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"), bytes[52] == UInt8(ascii: "-") else {
            throw refuse("the fields must be separated by '-' at characters 3, 36 and 53")
        }
        guard Self.isLowerHex(bytes[3..<35]) else { throw refuse("the trace id is not 32 lowercase hex digits") }
        guard Self.isLowerHex(bytes[36..<52]) else { throw refuse("the parent id is not 16 lowercase hex digits") }
        guard Self.isLowerHex(bytes[53..<55]) else { throw refuse("the flags are not 2 lowercase hex digits") }
        guard bytes[3..<35].contains(where: { $0 != UInt8(ascii: "0") }) else { throw refuse("the trace id is all zeros") }
        guard bytes[36..<52].contains(where: { $0 != UInt8(ascii: "0") }) else { throw refuse("the parent id is all zeros") }
        traceID = String(decoding: bytes[3..<35], as: UTF8.self)
        parentID = String(decoding: bytes[36..<52], as: UTF8.self)
        flags = UInt8(String(decoding: bytes[53..<55], as: UTF8.self), radix: 16) ?? 0
    }

    /// The value as sent: version 00.
    public var header: String {
        "00-\(traceID)-\(parentID)-\(String(flags >> 4, radix: 16))\(String(flags & 0xF, radix: 16))"
    }

    /// Whether the host records its trace (flag bit 0): if not, neither does the library.
    public var sampled: Bool { flags & 1 != 0 }

    /// The header a request of span `spanID` in trace `traceID` carries: `-01` when the trace
    /// is sampled (its spans recorded), `-00` when not.
    static func header(traceID: String, spanID: String, sampled: Bool = true) -> String {
        "00-\(traceID)-\(spanID)-\(sampled ? "01" : "00")"
    }

    private static func isLowerHex(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
