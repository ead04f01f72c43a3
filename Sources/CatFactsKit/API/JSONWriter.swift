/// Writes JSON text straight from the library's values, byte for byte what `JSONEncoder`
/// gives with `.sortedKeys` and `.withoutEscapingSlashes` (the tests compare the two), at a
/// fraction of the cost: the C face hands out a page as JSON on every call.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `text` as a JSON string: `"` and `\` escaped, control bytes as `\n`-style or
    /// `\u00XX` escapes (lowercase hex, as Foundation writes them), the rest as UTF-8.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(Ascii.quote)
            var run = 0  // start of the bytes not yet copied
            var index = 0
            while index < utf8.count {
                // Eight bytes at a time past the ones that need no escape.
                if index + 8 <= utf8.count, let base = utf8.baseAddress {
                    let special = Ascii.specialBytes(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    guard special != 0 else {
                        index += 8
                        continue
                    }
                    index += special.trailingZeroBitCount >> 3
                }
                let byte = utf8[index]
                index += 1
                guard byte < 0x20 || byte == Ascii.quote || byte == Ascii.backslash else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index - 1]))
                run = index
                bytes.append(Ascii.backslash)
                switch byte {
                case Ascii.quote, Ascii.backslash: bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case Ascii.newline: bytes.append(UInt8(ascii: "n"))
                case Ascii.carriageReturn: bytes.append(UInt8(ascii: "r"))
                case Ascii.tab: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
            bytes.append(Ascii.quote)
        }
    }

    /// Makes room for `count` more bytes (a page knows roughly how long it will be).
    mutating func reserve(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    /// Appends a number.
    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends `"key":`.
    mutating func key(_ key: StaticString) {
        bytes.append(Ascii.quote)
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(Ascii.quote)
        bytes.append(Ascii.colon)
    }

    /// Appends a punctuation byte (`{`, `,`, ...).
    mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `{"key":value,...}`: `members` writes each with a `member` call.
    mutating func object(_ members: (inout JSONWriter) -> Void) {
        bytes.append(Ascii.openBrace)
        firstMember = true
        members(&self)
        bytes.append(Ascii.closeBrace)
        // The enclosing object, if any, has just written a member.
        firstMember = false
    }

    /// Whether the object being written has no member yet: set by ``object(_:)``, cleared by
    /// its first member (a nested object clears it too when it closes, which is right: the
    /// member holding it has been written).
    private var firstMember = false

    /// A member of the object being written, whose value `value` writes; callers keep
    /// the keys in sorted order.
    mutating func member(_ key: StaticString, _ value: (inout JSONWriter) -> Void) {
        if !firstMember { bytes.append(Ascii.comma) }
        firstMember = false
        self.key(key)
        value(&self)
    }

    /// A string member, left out when `value` is `nil`.
    mutating func member(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        member(key) { $0.string(value) }
    }

    /// A number member.
    mutating func member(_ key: StaticString, _ value: Int) {
        member(key) { $0.int(value) }
    }

    /// Appends `[...]` of `values`.
    mutating func array<Value: JSONWritable>(_ values: [Value]) {
        bytes.append(Ascii.openBracket)
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(Ascii.comma) }
            value.writeJSON(to: &self)
        }
        bytes.append(Ascii.closeBracket)
    }
}

/// A value ``JSONOutput`` writes with ``JSONWriter`` instead of `JSONEncoder`.
protocol JSONWritable {
    func writeJSON(to writer: inout JSONWriter)
}
