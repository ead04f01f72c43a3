/// A one-pass JSON reader over bytes: the caller walks the document it expects (an object,
/// its keys, their values) and the scanner checks the syntax of everything it passes over,
/// including the values it skips (a skipped string's `\u` digits and UTF-8 excepted: they
/// are checked when a string is read). No tree is built; strings without escapes become
/// Swift strings straight from the bytes. Used by ``ScanningPageDecoder``.
///
/// Works on a pointer the caller keeps alive (inside `withUnsafeBufferPointer`).
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    var offset = 0
    var depth = 0
    /// Whether the next member of the innermost container was the first one: set when it
    /// is opened, cleared by the first member.
    var first = false
    var scratch: [UInt8] = []
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

    /// ``nextKey(among:expected:)``, skipping the members whose key is not met for the first
    /// time in this object (an unknown key, or a known one given again: ``KeysSeen``).
    mutating func nextNewKey(among known: KeySet, expected: Int = 0, seen: inout KeysSeen) throws(ScanError) -> Int? {
        while let key = try nextKey(among: known, expected: expected) {
            if seen.first(key) { return key }
            try skipValue()
        }
        return nil
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

    /// Reads a string (the next value must be one), after any white space before it.
    mutating func string() throws(ScanError) -> String {
        skipSpace()
        return try makeString(try rawString())
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
        guard ascii || Self.spells(text, span) else {
            throw .syntax("a string that is not valid UTF-8", offset: start - 1, size: size)
        }
        return text
    }

    /// Whether `text`'s UTF-8 is `span`'s bytes: compared in place (a native string lends its
    /// bytes), since going through the UTF-8 view byte by byte took 1,250 instructions a string
    /// (3 % of a C sweep's, for the one field in six that is not ASCII).
    private static func spells(_ text: String, _ span: UnsafeBufferPointer<UInt8>) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { utf8 in utf8.elementsEqual(span) } ?? text.utf8.elementsEqual(span)
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
            // As LenientInt reads it: the text trimmed of white space, then digits with an
            // optional sign (no fraction, no exponent).
            guard let value = Int(text.trimmed()) else { throw .mismatch(expected: "Int", path: [], found: "\"\(text)\"") }
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
}
