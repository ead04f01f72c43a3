/// A JSON document as a tree of values: for the small objects read whole (the C face's
/// options), where walking the document with ``JSONScanner`` key by key would not pay.
/// Pages never come this way.
package indirect enum JSONValue: Sendable, Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String)
    case array([JSONValue]), object([String: JSONValue])

    /// The document `bytes` holds: one value, white space around it. Refused with the
    /// scanner's message (where, what): bad syntax, nesting deeper than
    /// ``JSONScanner/maxDepth``. A number is an `.integer` when its value is a whole number
    /// that fits (`8`, `2500.0`, `1e3`: ``JSONScanner/integer(_:)``, as `JSONDecoder` reads
    /// an `Int64`), else a `.number`; of two members of one name, the first counts (as
    /// ``KeysSeen`` does; the later value is still checked).
    package static func parse(_ bytes: [UInt8]) throws(DecodeFailure) -> JSONValue {
        try ScanningPageDecoder.scan(bytes) { scanner throws(ScanError) in try read(&scanner) }
    }

    private static func read(_ scanner: inout JSONScanner) throws(ScanError) -> JSONValue {
        switch scanner.nextKind() {
        case .null:
            try scanner.literal("null")
            return .null
        case .bool:
            if scanner.peek() == UInt8(ascii: "t") {
                try scanner.literal("true")
                return .bool(true)
            }
            try scanner.literal("false")
            return .bool(false)
        case .string:
            return .string(try scanner.string())
        case .number:
            let start = scanner.offset
            try scanner.skipNumber()
            let digits = UnsafeBufferPointer(rebasing: scanner.bytes[start..<scanner.offset])
            if let integer = JSONScanner.integer(digits) { return .integer(Int64(integer)) }
            guard let number = Double(String(decoding: digits, as: UTF8.self)) else {
                throw scanner.syntax("expected a number", at: start)
            }
            return .number(number)
        case .array:
            try scanner.beginArray()
            var items: [JSONValue] = []
            while try scanner.nextElement() { items.append(try read(&scanner)) }
            return .array(items)
        case .object:
            try scanner.beginObject()
            var members: [String: JSONValue] = [:]
            while try scanner.nextMember(closing: Ascii.closeBrace) {
                guard scanner.peek() == Ascii.quote else { throw scanner.syntax("expected a key in quotes") }
                let key = try scanner.string()
                scanner.skipSpace()
                guard scanner.peek() == Ascii.colon else { throw scanner.syntax("expected ':' after a key") }
                scanner.offset += 1
                let value = try read(&scanner)
                if members[key] == nil { members[key] = value }
            }
            return .object(members)
        case .invalid:
            throw scanner.syntax("expected a value")
        }
    }
}
