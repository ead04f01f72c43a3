/// The scanner's tokens: whitespace, containers' punctuation, strings (with their escapes
/// and UTF-8 checked), numbers and literals, and the syntax errors that name a byte offset.
extension JSONScanner {
    func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case Ascii.space, Ascii.tab, Ascii.newline, Ascii.carriageReturn: offset += 1
            default: return
            }
        }
    }

    mutating func enter(_ opening: UInt8, _ what: String) throws(ScanError) {
        switch nextKind() {
        case .invalid: throw syntax("expected \(what)")
        case let kind where peek() != opening: throw .mismatch(expected: what == "an object" ? "Object" : "Array", path: [], found: kind.name)
        default: break
        }
        depth += 1
        guard depth <= Self.maxDepth else { throw syntax("nesting deeper than \(Self.maxDepth) levels") }
        offset += 1
        skipSpace()
        // An empty container: the first nextMember sees the closing byte straight away.
        first = true
    }


    /// Reads the `,` before a member, or the closing byte (then `false`).
    mutating func nextMember(closing: UInt8) throws(ScanError) -> Bool {
        skipSpace()
        guard let byte = peek() else { throw syntax("the body ends inside \(closing == Ascii.closeBrace ? "an object" : "an array")") }
        if byte == closing {
            offset += 1
            depth -= 1
            first = false
            return false
        }
        if first {
            first = false
        } else {
            guard byte == Ascii.comma else { throw syntax("expected ',' or '\(Character(Unicode.Scalar(closing)))'") }
            offset += 1
            skipSpace()
        }
        return true
    }

    /// A string's span inside the quotes, and whether it holds escapes or only ASCII.
    struct RawString {
        var start: Int
        var end: Int
        var escaped: Bool
        var ascii: Bool
    }

    /// Reads a string token, checking its escapes' shape; the content is not copied.
    mutating func rawString() throws(ScanError) -> RawString {
        guard peek() == Ascii.quote else { throw .mismatch(expected: "String", path: [], found: nextKind().name) }
        let start = offset + 1
        var index = start
        var escaped = false
        var wide: UInt64 = 0  // every plain byte or-ed in: its high bits say whether all were ASCII
        while true {
            if index + 8 <= bytes.count, let base = bytes.baseAddress {
                // Eight bytes at a time: find the first quote, backslash or control byte.
                let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let special = Ascii.specialBytes(word)
                guard special != 0 else {
                    wide |= word
                    index += 8
                    continue
                }
                let plain = special.trailingZeroBitCount >> 3
                wide |= word & ((1 << (plain << 3)) &- 1)
                index += plain
            } else if index == bytes.count {
                break
            }
            // At a special byte, or in the last seven bytes of the body.
            let byte = bytes[index]
            if byte == Ascii.quote {
                offset = index + 1
                return RawString(start: start, end: index, escaped: escaped, ascii: wide & 0x8080_8080_8080_8080 == 0)
            }
            if byte == Ascii.backslash {
                escaped = true
                guard index + 1 < bytes.count else { break }
                switch bytes[index + 1] {
                case Ascii.quote, Ascii.backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"), UInt8(ascii: "u"):
                    index += 2
                    continue
                default:
                    offset = index
                    throw syntax("an invalid escape in a string")
                }
            }
            if byte < 0x20 {
                offset = index
                throw syntax("a control character inside a string")
            }
            wide |= UInt64(byte)
            index += 1
        }
        offset = bytes.count
        throw syntax("the body ends inside a string")
    }


    /// The bytes of an escaped string with its escapes undone (UTF-8 not yet checked).
    func unescape(_ raw: RawString, into out: inout [UInt8]) throws(ScanError) {
        out.reserveCapacity(raw.end - raw.start)
        var index = raw.start
        while index < raw.end {
            let byte = bytes[index]
            guard byte == Ascii.backslash else {
                out.append(byte)
                index += 1
                continue
            }
            let code = bytes[index + 1]
            index += 2
            switch code {
            case Ascii.quote, Ascii.backslash, UInt8(ascii: "/"): out.append(code)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(Ascii.newline)
            case UInt8(ascii: "r"): out.append(Ascii.carriageReturn)
            case UInt8(ascii: "t"): out.append(Ascii.tab)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: index, end: raw.end)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard index + 6 <= raw.end, bytes[index] == Ascii.backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                        throw syntax("a lone surrogate in a \\u escape", at: index)
                    }
                    let low = try hex4(at: index + 2, end: raw.end)
                    guard (0xDC00...0xDFFF).contains(low) else { throw syntax("a lone surrogate in a \\u escape", at: index) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw syntax("a lone surrogate in a \\u escape", at: index - 6)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw syntax("an invalid \\u escape", at: index - 6) }
                UTF8.encode(unicode) { out.append($0) }
            default:
                throw syntax("an invalid escape '\\\(Character(Unicode.Scalar(code)))'", at: index - 2)
            }
        }
    }

    func hex4(at index: Int, end: Int) throws(ScanError) -> UInt32 {
        guard index + 4 <= end else { throw syntax("a \\u escape with fewer than 4 hex digits", at: index - 2) }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("a \\u escape with a non-hex digit", at: index - 2)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Passes over a number, checking JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    mutating func skipNumber() throws(ScanError) {
        let start = offset
        func digits(_ scanner: inout JSONScanner) -> Int {
            let from = scanner.offset
            while let byte = scanner.peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { scanner.offset += 1 }
            return scanner.offset - from
        }
        if peek() == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw syntax("a number without digits", at: start) }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw syntax("a number with a leading zero", at: start) }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits(&self) > 0 else { throw syntax("a number with no digits after '.'", at: start) }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits(&self) > 0 else { throw syntax("a number with no digits in its exponent", at: start) }
        }
    }

    /// An integer from a number's text: digits with an optional sign, or a fraction and
    /// exponent whose value is a whole number that fits (``wholeNumber(_:)``).
    static func integer(_ text: some Collection<UInt8>) -> Int? {
        var value = 0
        var negative = false
        var index = text.startIndex
        if index != text.endIndex, text[index] == UInt8(ascii: "-") {
            negative = true
            index = text.index(after: index)
        }
        guard index != text.endIndex else { return nil }
        var plain = true
        while index != text.endIndex {
            let byte = text[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                plain = false
                break
            }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = negative ? times.subtractingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                                             : times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = plus
            index = text.index(after: index)
        }
        return plain ? value : wholeNumber(Array(text))
    }

    /// The value of a number with a fraction or an exponent (JSON's grammar, already checked)
    /// when it is a whole number that fits, computed exactly as JSONDecoder does: through a
    /// `Double`, `9007199254740993.0` would come out as ...992.
    private static func wholeNumber(_ text: [UInt8]) -> Int? {
        let negative = text.first == UInt8(ascii: "-")
        var digits: [Int] = []  // of the integer part and the fraction, in order
        var fractionDigits = 0
        var inFraction = false
        var index = negative ? 1 : 0
        while index < text.count, text[index] != UInt8(ascii: "e"), text[index] != UInt8(ascii: "E") {
            if text[index] == UInt8(ascii: ".") {
                inFraction = true
            } else {
                digits.append(Int(text[index] - UInt8(ascii: "0")))
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        var exponent = 0
        if index < text.count {
            index += 1
            let negativeExponent = text[index] == UInt8(ascii: "-")
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
            // Capped: past a million, a value other than zero is either a fraction or too large.
            for byte in text[index...] where exponent < 1_000_000 { exponent = exponent * 10 + Int(byte - UInt8(ascii: "0")) }
            if negativeExponent { exponent = -exponent }
        }
        guard let first = digits.firstIndex(where: { $0 != 0 }) else { return 0 }
        digits.removeFirst(first)
        // The value is digits × 10^scale: a negative scale must drop zeros only.
        let scale = exponent - fractionDigits
        if scale < 0 {
            guard -scale < digits.count, digits.suffix(-scale).allSatisfy({ $0 == 0 }) else { return nil }
            digits.removeLast(-scale)
        } else {
            guard digits.count + scale <= 19 else { return nil }
            digits += repeatElement(0, count: scale)
        }
        var value = 0
        for digit in digits {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = plus
        }
        return value
    }

    mutating func literal(_ word: StaticString) throws(ScanError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard offset + expected.count <= bytes.count, bytes[offset..<offset + expected.count].elementsEqual(expected) else {
            throw syntax("expected a value")
        }
        offset += expected.count
    }


    func syntax(_ what: String, at position: Int? = nil) -> ScanError {
        .syntax(what, offset: position ?? offset, size: bytes.count)
    }
}
