import Foundation

/// The deliberate differences between the scanner and Foundation's JSONDecoder (see the
/// list at the top of PageDecoderFuzz.swift), each checked on the input's bytes.
enum Allowed {
    /// Differences 1, 3, 4 and 5: an input that is not UTF-8 to the letter of RFC 8259 (a
    /// byte order mark, or a NUL in the first four bytes, which is how UTF-16 and UTF-32
    /// start), or that is not JSON at all though JSONDecoder decoded what it needed of it, or
    /// with a number past a Double's precision, or with a trailing comma.
    static func foundationOnly(_ body: [UInt8]) -> Bool {
        body.starts(with: [0xEF, 0xBB, 0xBF]) || body.starts(with: [0xFE, 0xFF]) || body.starts(with: [0xFF, 0xFE])
            || body.prefix(4).contains(0) || !isJSON(body) || hasNumberBeyondDouble(body) || hasTrailingComma(body)
    }

    /// Difference 5: a comma just before a `}` or a `]` (white space between allowed),
    /// outside strings, which Foundation reads and RFC 8259 does not allow.
    static func hasTrailingComma(_ body: [UInt8]) -> Bool {
        var inString = false
        var comma = false
        var index = 0
        while index < body.count {
            let byte = body[index]
            index += 1
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if comma { return true }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
            case UInt8(ascii: "\""): inString = true
            default: break
            }
            comma = byte == UInt8(ascii: ",")
        }
        return false
    }

    /// Whether JSONSerialization, which builds every value and so checks every string and
    /// number, reads `body`.
    static func isJSON(_ body: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) != nil
    }

    /// Difference 2: an input with invalid UTF-8 or a malformed `\u` escape somewhere, which
    /// the scanner lets pass in strings it skips.
    static func scannerOnly(_ body: [UInt8]) -> Bool {
        String(validating: body, as: UTF8.self) == nil || hasMalformedUnicodeEscape(body) || hasNumberBeyondDouble(body)
    }

    /// Difference 4: a number with a fraction or an exponent, outside strings, that a
    /// `Double` does not hold exactly: more than 15 significant digits, or an exponent
    /// beyond 300 either way.
    static func hasNumberBeyondDouble(_ body: [UInt8]) -> Bool {
        var inString = false
        var index = 0
        while index < body.count {
            let byte = body[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                index += 1
                continue
            }
            var end = index
            while end < body.count, Set("+-.eE0123456789".utf8).contains(body[end]) { end += 1 }
            if beyondDouble(body[index..<end]) { return true }
            index = end
        }
        return false
    }

    private static func beyondDouble(_ number: ArraySlice<UInt8>) -> Bool {
        let mantissa = number.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        guard mantissa.count < number.count || mantissa.contains(UInt8(ascii: ".")) else { return false }
        let digits = mantissa.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.drop { $0 == UInt8(ascii: "0") }
        let exponent = number.dropFirst(mantissa.count + 1).filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return digits.count > 15 || exponent.drop { $0 == UInt8(ascii: "0") }.count > 2
    }

    /// Whether a `\u` escape lacks four hex digits or encodes a lone surrogate. Backslashes
    /// are taken in pairs from left to right, as inside a string (outside one, a backslash
    /// is a syntax error both decoders report).
    static func hasMalformedUnicodeEscape(_ body: [UInt8]) -> Bool {
        var index = 0
        while index < body.count {
            guard body[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            guard index + 1 < body.count, body[index + 1] == UInt8(ascii: "u") else {
                index += 2
                continue
            }
            guard let scalar = hex4(body, at: index + 2) else { return true }
            index += 6
            if (0xDC00...0xDFFF).contains(scalar) { return true }
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < body.count, body[index] == UInt8(ascii: "\\"), body[index + 1] == UInt8(ascii: "u"),
                      let low = hex4(body, at: index + 2), (0xDC00...0xDFFF).contains(low) else { return true }
                index += 6
            }
        }
        return false
    }

    private static func hex4(_ body: [UInt8], at index: Int) -> UInt32? {
        guard index + 4 <= body.count else { return nil }
        var value: UInt32 = 0
        for byte in body[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
