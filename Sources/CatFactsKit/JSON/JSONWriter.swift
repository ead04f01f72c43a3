/// Writes JSON text straight from the library's values, byte for byte what `JSONEncoder`
/// gives with `.sortedKeys` and `.withoutEscapingSlashes` (the tests compare the two), at a
/// fraction of the cost: the C face hands out a page as JSON on every call.
///
/// The text grows in a buffer of its own (noncopyable, freed with the writer), so appending
/// is a bounds check and a copy, with no reference counting on the way.
struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The text written so far.
    var text: String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Makes room for `extra` more bytes (a page knows roughly how long it will be).
    mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(count + extra, capacity * 2)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = grown
    }

    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    /// Appends `text` as a JSON string: `"` and `\` escaped, control bytes as `\n`-style or
    /// `\u00XX` escapes (lowercase hex, as Foundation writes them), the rest as UTF-8.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// Appends the UTF-8 text `utf8` as a JSON string, as ``string(_:)`` does.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        // The usual case, nothing to escape, is one copy: room for it all at once.
        reserve(utf8.count + 2)
        append(Ascii.quote)
        var run = 0  // start of the bytes not yet copied
        var index = 0
        while index < utf8.count {
            // Eight bytes at a time past the ones that need no escape.
            if index + 8 <= utf8.count, let start = utf8.baseAddress {
                let special = Ascii.specialBytes(UnsafeRawPointer(start).loadUnaligned(fromByteOffset: index, as: UInt64.self))
                guard special != 0 else {
                    index += 8
                    continue
                }
                index += special.trailingZeroBitCount >> 3
            }
            let byte = utf8[index]
            index += 1
            guard byte < 0x20 || byte == Ascii.quote || byte == Ascii.backslash else { continue }
            append(UnsafeBufferPointer(rebasing: utf8[run..<index - 1]))
            run = index
            escape(byte)
        }
        append(UnsafeBufferPointer(rebasing: utf8[run...]))
        append(Ascii.quote)
    }

    private mutating func escape(_ byte: UInt8) {
        append(Ascii.backslash)
        switch byte {
        case Ascii.quote, Ascii.backslash: append(byte)
        case 0x08: append(UInt8(ascii: "b"))
        case 0x0C: append(UInt8(ascii: "f"))
        case Ascii.newline: append(UInt8(ascii: "n"))
        case Ascii.carriageReturn: append(UInt8(ascii: "r"))
        case Ascii.tab: append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            for digit in [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] {
                append(digit)
            }
        }
    }

    /// Appends a number.
    mutating func int(_ value: Int) {
        var digits = String(value)
        digits.withUTF8 { append($0) }
    }

    /// Appends `"key":`.
    private mutating func key(_ key: StaticString) {
        reserve(key.utf8CodeUnitCount + 3)
        append(Ascii.quote)
        append(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        append(Ascii.quote)
        append(Ascii.colon)
    }

    /// Appends `{"key":value,...}`: `members` writes each with a `member` call.
    mutating func object(_ members: (inout JSONWriter) -> Void) {
        append(Ascii.openBrace)
        firstMember = true
        members(&self)
        append(Ascii.closeBrace)
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
        if !firstMember { append(Ascii.comma) }
        firstMember = false
        self.key(key)
        value(&self)
    }

    /// A member whose key is known only at run time (``JSONTreeEncoder``), escaped as a string.
    mutating func member(dynamic key: String, _ value: (inout JSONWriter) -> Void) {
        if !firstMember { append(Ascii.comma) }
        firstMember = false
        string(key)
        append(Ascii.colon)
        value(&self)
    }

    /// Appends `text`, already JSON (a number, `true`, `null`), as it is.
    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// A string member, left out when `value` is `nil`.
    mutating func member(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        member(key) { $0.string(value) }
    }

    /// A string member whose value is the UTF-8 `utf8`, left out when it is empty (an absent
    /// field of a ``BreedArena``).
    mutating func member(_ key: StaticString, utf8: UnsafeBufferPointer<UInt8>) {
        guard !utf8.isEmpty else { return }
        member(key) { $0.string(utf8: utf8) }
    }

    /// A number member.
    mutating func member(_ key: StaticString, _ value: Int) {
        member(key) { $0.int(value) }
    }

    /// Appends `[...]` of `values`.
    mutating func array<Value: JSONWritable>(_ values: [Value]) {
        array(count: values.count) { writer, index in values[index].writeJSON(to: &writer) }
    }

    /// Appends `[...]` of `count` elements, element `i` written by `element(&self, i)`.
    mutating func array(count: Int, _ element: (inout JSONWriter, Int) -> Void) {
        append(Ascii.openBracket)
        for index in 0..<count {
            if index > 0 { append(Ascii.comma) }
            element(&self, index)
        }
        append(Ascii.closeBracket)
    }
}

/// A value ``JSONOutput`` writes with ``JSONWriter`` instead of `JSONEncoder`.
protocol JSONWritable {
    func writeJSON(to writer: inout JSONWriter)
}
