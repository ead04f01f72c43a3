/// A one-pass JSON reader over bytes: the caller walks the document it expects (an object,
/// its keys, their values) and the scanner checks the syntax of everything it passes over,
/// including the values it skips (a skipped string's `\u` digits and UTF-8 excepted: they
/// are checked when a string is read). No tree is built; strings without escapes become
/// Swift strings straight from the bytes. Used by ``ScanningPageDecoder``.
///
/// Works on a pointer the caller keeps alive (inside `withUnsafeBufferPointer`).
struct JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    private(set) var offset = 0
    private var depth = 0
    private var scratch: [UInt8] = []
    /// Deeper nesting than this is refused, so a hostile body cannot exhaust the stack.
    static let maxDepth = 512

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: Structure

    /// Reads `{`.
    mutating func beginObject() throws(ScanError) {
        try enter(Ascii.openBrace, "an object")
    }

    /// Reads the next key of the object begun with ``beginObject()`` and its `:`; `nil` at the
    /// closing `}` (read too). The key is the index of the matching entry of `known`, or -1.
    /// `expected` is the entry most likely next (objects usually keep their keys' order):
    /// it is tried first.
    mutating func nextKey(among known: KeySet, expected: Int = 0) throws(ScanError) -> Int? {
        guard try nextMember(closing: Ascii.closeBrace) else { return nil }
        guard peek() == Ascii.quote else { throw syntax("expected a key in quotes") }
        let index: Int
        if let (found, end) = known.match(bytes, at: offset + 1, expected: expected) {
            // A known key spelled plainly, closing quote included: no scan of its bytes.
            index = found
            offset = end
        } else {
            // Unknown, or a known key written with escapes: a plain known one matched above.
            let key = try rawString()
            var unescaped: [UInt8] = []
            if key.escaped { try unescape(key, into: &unescaped) }
            index = key.escaped ? known.index(of: unescaped) : -1
        }
        skipSpace()
        guard peek() == Ascii.colon else { throw syntax("expected ':' after a key") }
        offset += 1
        return index
    }

    /// Reads `[`.
    mutating func beginArray() throws(ScanError) {
        try enter(Ascii.openBracket, "an array")
    }

    /// Moves to the next element of the array begun with ``beginArray()``; `false` at the
    /// closing `]` (read too).
    mutating func nextElement() throws(ScanError) -> Bool {
        try nextMember(closing: Ascii.closeBracket)
    }

    /// Bytes not read yet.
    var remainingBytes: Int { bytes.count - offset }

    /// After the top-level value: nothing but white space may follow.
    mutating func end() throws(ScanError) {
        skipSpace()
        guard offset == bytes.count else { throw syntax("unexpected data after the JSON value") }
    }

    // MARK: Values

    /// The kind of the next value, for error messages and `null` checks.
    mutating func nextKind() -> ValueKind {
        skipSpace()
        guard let byte = peek() else { return .invalid }
        switch byte {
        case Ascii.quote: return .string
        case Ascii.openBrace: return .object
        case Ascii.openBracket: return .array
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: return .invalid
        }
    }

    /// Reads a string, or `null` as `nil`; anything else is a type error (`expected String`).
    mutating func optionalString() throws(ScanError) -> String? {
        switch nextKind() {
        case .null:
            try literal("null")
            return nil
        case .string:
            return try string()
        case .invalid:
            throw syntax("expected a value")
        case let kind:
            throw .mismatch(expected: "String", path: [], found: kind.name)
        }
    }

    /// Reads a string (the next value must be one).
    mutating func string() throws(ScanError) -> String {
        try makeString(try rawString())
    }

    private mutating func makeString(_ raw: RawString) throws(ScanError) -> String {
        try makeStringNotingEnds(raw).text
    }

    /// ``optionalString()``, and whether the string plainly needs no trimming
    /// (``Breed/hasPlainEnds(first:last:)`` on its bytes), so callers that drop white space
    /// at the ends can skip `Breed.presence` (measured: a fifth of decoding when every field
    /// went through it).
    mutating func optionalStringNotingEnds() throws(ScanError) -> (text: String, trimmed: Bool)? {
        guard nextKind() == .string else { return try optionalString().map { ($0, false) } }
        return try makeStringNotingEnds(try rawString())
    }

    /// The string `raw` spells, and whether it starts and ends with a printable ASCII byte.
    private mutating func makeStringNotingEnds(_ raw: RawString) throws(ScanError) -> (text: String, trimmed: Bool) {
        if raw.escaped {
            // Undone into the scanner's scratch buffer, reused from string to string.
            var unescaped: [UInt8] = []
            swap(&unescaped, &scratch)
            defer { swap(&unescaped, &scratch) }
            unescaped.removeAll(keepingCapacity: true)
            try unescape(raw, into: &unescaped)
            let ascii = !unescaped.contains { $0 >= 0x80 }
            return try unescaped.withUnsafeBufferPointer { span throws(ScanError) in
                (try Self.string(span, ascii: ascii, at: raw.start, size: bytes.count), Self.hasPlainEnds(span))
            }
        }
        let span = UnsafeBufferPointer(rebasing: bytes[raw.start..<raw.end])
        return (try Self.string(span, ascii: raw.ascii, at: raw.start, size: bytes.count), Self.hasPlainEnds(span))
    }

    /// `String(decoding:)`, the stdlib's fastest way in, which repairs bad UTF-8 instead of
    /// failing: a string that is not plain ASCII is compared with its bytes to catch that.
    private static func string(_ span: UnsafeBufferPointer<UInt8>, ascii: Bool, at start: Int, size: Int) throws(ScanError) -> String {
        let text = String(decoding: span, as: UTF8.self)
        guard ascii || text.utf8.elementsEqual(span) else {
            throw .syntax("a string that is not valid UTF-8", offset: start - 1, size: size)
        }
        return text
    }

    private static func hasPlainEnds(_ span: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = span.first, let last = span.last else { return false }
        return Breed.hasPlainEnds(first: first, last: last)
    }

    /// Reads an integer sent as a number (`5`, also `5.0`) or as a numeric string (`"5"`),
    /// as Laravel echoes `per_page`; anything else is a type error.
    mutating func lenientInt() throws(ScanError) -> Int {
        switch nextKind() {
        case .number:
            let start = offset
            try skipNumber()
            guard let value = Self.integer(bytes[start..<offset]) else {
                throw .mismatch(expected: "Int", path: [], found: "\(String(decoding: bytes[start..<offset], as: UTF8.self))")
            }
            return value
        case .string:
            let text = try string()
            let utf8 = Array(text.utf8)
            let start = utf8.firstIndex { $0 != Ascii.space && $0 != Ascii.tab } ?? utf8.endIndex
            let end = (utf8.lastIndex { $0 != Ascii.space && $0 != Ascii.tab } ?? start - 1) + 1
            guard start < end, let value = Self.integer(utf8[start..<end]) else {
                throw .mismatch(expected: "Int", path: [], found: "\"\(text)\"")
            }
            return value
        case .invalid:
            throw syntax("expected a value")
        case let kind:
            throw .mismatch(expected: "Int", path: [], found: kind.name)
        }
    }

    /// ``lenientInt()``, or `null` as `nil`.
    mutating func optionalLenientInt() throws(ScanError) -> Int? {
        if nextKind() == .null {
            try literal("null")
            return nil
        }
        return try lenientInt()
    }

    /// Passes over the next value, checking its syntax.
    mutating func skipValue() throws(ScanError) {
        switch nextKind() {
        case .string: _ = try rawString()
        case .number: try skipNumber()
        case .null: try literal("null")
        case .bool: try literal(peek() == UInt8(ascii: "t") ? "true" : "false")
        case .object:
            try beginObject()
            while try nextKey(among: .none) != nil { try skipValue() }
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        case .invalid:
            throw syntax(offset == bytes.count ? "the body ends where a value should be" : "expected a value")
        }
    }

    // MARK: Tokens

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case Ascii.space, Ascii.tab, Ascii.newline, Ascii.carriageReturn: offset += 1
            default: return
            }
        }
    }

    private mutating func enter(_ opening: UInt8, _ what: String) throws(ScanError) {
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

    /// Whether the next member of the innermost container was the first one: set when it
    /// is opened, cleared by the first member.
    private var first = false

    /// Reads the `,` before a member, or the closing byte (then `false`).
    private mutating func nextMember(closing: UInt8) throws(ScanError) -> Bool {
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
    private mutating func rawString() throws(ScanError) -> RawString {
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
    private func unescape(_ raw: RawString, into out: inout [UInt8]) throws(ScanError) {
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

    private func hex4(at index: Int, end: Int) throws(ScanError) -> UInt32 {
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
    private mutating func skipNumber() throws(ScanError) {
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
    /// exponent whose value is a whole number that fits.
    private static func integer(_ text: some Collection<UInt8>) -> Int? {
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
        if plain { return value }
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.rounded() == double else { return nil }
        return Int(exactly: double)
    }

    private mutating func literal(_ word: StaticString) throws(ScanError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard offset + expected.count <= bytes.count, bytes[offset..<offset + expected.count].elementsEqual(expected) else {
            throw syntax("expected a value")
        }
        offset += expected.count
    }

    // MARK: Errors

    private func syntax(_ what: String, at position: Int? = nil) -> ScanError {
        .syntax(what, offset: position ?? offset, size: bytes.count)
    }
}

/// The byte values the scanner looks for.
enum Ascii {
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    /// The high bit of each of the eight bytes of `word` (little-endian: the first byte is
    /// the lowest) that is `"`, `\\` or below 0x20. Bit tricks: `x - 0x01 & ~x & 0x80` per
    /// byte flags a zero byte of x; a borrow can raise a false flag only above a true one, so
    /// the lowest flag is always right.
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(Ascii.quote))
        let slashes = word ^ (ones &* UInt64(Ascii.backslash))
        let zeroQuote = (quotes &- ones) & ~quotes
        let zeroSlash = (slashes &- ones) & ~slashes
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroSlash | control) & 0x8080_8080_8080_8080
    }
}

/// What the next value is, judged by its first byte.
enum ValueKind {
    case string, number, object, array, bool, null, invalid

    /// For error messages: "a number", "null".
    var name: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .object: "an object"
        case .array: "an array"
        case .bool: "a boolean"
        case .null: "null"
        case .invalid: "no value"
        }
    }
}
