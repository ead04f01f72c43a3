/// What the fast paths of decoded pages share (``JSONScanner/fastBreeds(into:)``,
/// ``JSONScanner/fastFacts(into:)``): a key matched as two eight-byte words, and a string read
/// straight into an arena's text, eight bytes at a time, its escapes undone on the way, its
/// closing quote becoming the NUL. Whatever the fast path cannot vouch for (a control
/// character, a NUL, a lone surrogate, bad UTF-8, an end to trim) makes it give up, and the
/// general path reads the page, with its results and error texts.
extension JSONScanner {
    /// Reads the array at the scanner's offset into `builder` as the fast paths do: `[`, items
    /// separated by commas, `]`, no white space between; each item by `item`, given the bytes,
    /// the index of its first byte (to move past its last), the bytes' end, where its text goes
    /// (to move past it) and the builder. Room for the text is made once: it never outgrows
    /// the bytes it comes from (a closing quote pays for each NUL). `false`, with the offset
    /// where it was and the builder emptied, for anything else or when `item` says so.
    @inline(__always)
    mutating func fastArray<Builder: ArenaTextBuilder>(
        into builder: inout Builder,
        _ item: (UnsafePointer<UInt8>, inout Int, Int, inout UnsafeMutablePointer<UInt8>, inout Builder) -> Bool
    ) -> Bool {
        builder.reserveText(bytes.count - offset)
        var out = builder.text + builder.textSize
        skipSpace()
        guard let base = bytes.baseAddress, offset < bytes.count, base[offset] == Ascii.openBracket else { return false }
        var index = offset &+ 1
        let end = bytes.count
        if index < end, base[index] == Ascii.closeBracket {
            offset = index &+ 1
            return true
        }
        while item(base, &index, end, &out, &builder), index < end {
            let byte = base[index]
            index &+= 1
            if byte == Ascii.comma { continue }
            guard byte == Ascii.closeBracket else { break }
            builder.textSize = out - builder.text
            offset = index
            return true
        }
        builder.reset()
        return false
    }

    /// The key `key` at `index`, then its string's content into the text at `out` with a NUL
    /// after it, its offset from `text` into `start`; moves past the closing quote. `false`
    /// (the general path must read it) for an empty string unless `emptyAllowed`, and, when
    /// `trims`, for one with white space to trim at an end.
    @inline(__always)
    static func readField(_ base: UnsafePointer<UInt8>, _ index: inout Int, _ end: Int, _ key: FastKeys,
                          emptyAllowed: Bool, trims: Bool, text: UnsafePointer<UInt8>, out: inout UnsafeMutablePointer<UInt8>,
                          start: UnsafeMutablePointer<UInt32>) -> Bool {
        guard index &+ 16 <= end, key.matches(base + index) else { return false }
        index &+= key.length
        let first = out
        start.pointee = UInt32(truncatingIfNeeded: UnsafePointer(first) - text)
        var wide: UInt64 = 0
        while true {
            guard index &+ 8 <= end else { return false }
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Stored whole: the builder's slack takes the bytes past the string's end.
            UnsafeMutableRawPointer(out).storeBytes(of: word, as: UInt64.self)
            let special = Ascii.specialBytes(word)
            if special == 0 {
                wide |= word
                index &+= 8
                out += 8
                continue
            }
            let plain = special.trailingZeroBitCount &>> 3
            wide |= word & ((1 &<< (plain &<< 3)) &- 1)
            index &+= plain
            out += plain
            let byte = base[index]
            if byte == Ascii.quote {
                index &+= 1
                break
            }
            guard byte == Ascii.backslash, let written = unescape(base, &index, end, to: out) else { return false }
            out += written
        }
        let length = out - first
        if length == 0 {
            guard emptyAllowed else { return false }  // an empty name is an error: the general path words it
        } else if !plainField(UnsafeBufferPointer(start: first, count: length), wide: wide, trims: trims) {
            return false
        }
        out.pointee = 0
        out += 1
        return true
    }

    /// Whether a field's text needs nothing the general path does: valid UTF-8 (checked only
    /// when a byte of it is not ASCII, `wide`'s high bits) and, when it `trims`, nothing to
    /// trim at its ends.
    @inline(__always)
    private static func plainField(_ text: UnsafeBufferPointer<UInt8>, wide: UInt64, trims: Bool) -> Bool {
        if wide & 0x8080_8080_8080_8080 != 0, !isUTF8(text) { return false }
        return !trims || Breed.hasPlainEnds(first: text[0], last: text[text.count &- 1])
            || Breed.presence(String(decoding: text, as: UTF8.self))?.utf8.count == text.count
    }

    /// The escape at `index` (its backslash) undone at `out`, moving past it; the bytes
    /// written, or `nil` for one the general path must word (a NUL, a lone surrogate, a bad
    /// digit, an unknown escape, the body's end).
    @inline(never)
    private static func unescape(_ base: UnsafePointer<UInt8>, _ index: inout Int, _ end: Int,
                                 to out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard index + 1 < end else { return nil }
        if let unescaped = simpleEscape(base[index + 1]) {
            out.pointee = unescaped
            index += 2
            return 1
        }
        // \uXXXX (a pair for a scalar past U+FFFF), as PHP writes every non-ASCII character.
        guard base[index + 1] == UInt8(ascii: "u"), index + 6 <= end, let high = hex4(base + index + 2), high != 0
        else { return nil }
        var scalar = high
        index += 6
        if (0xD800..<0xDC00).contains(high) {
            guard index + 6 <= end, base[index] == Ascii.backslash, base[index + 1] == UInt8(ascii: "u"),
                  let low = hex4(base + index + 2), (0xDC00..<0xE000).contains(low) else { return nil }
            scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            index += 6
        } else if (0xDC00..<0xE000).contains(high) {
            return nil
        }
        return writeUTF8(scalar, to: out)
    }

    /// The four hex digits at `at`, or `nil`.
    @inline(__always)
    private static func hex4(_ at: UnsafePointer<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = at[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Writes `scalar` (a Unicode scalar value) as UTF-8 at `out`; the bytes written (never
    /// more than the six or twelve of its escape).
    @inline(__always)
    private static func writeUTF8(_ scalar: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case ..<0x80:
            out[0] = UInt8(scalar)
            return 1
        case ..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6)
            out[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12)
            out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18)
            out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// What the escape `\` `byte` stands for, when it is one of the single-byte ones.
    @inline(__always)
    private static func simpleEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case Ascii.quote, Ascii.backslash, UInt8(ascii: "/"): byte
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// Whether `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
    /// nothing above U+10FFFF).
    static func isUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = text.count
        while index < count {
            let lead = text[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard index + length <= count, (low...high).contains(text[index + 1]) else { return false }
            for next in 2..<length where text[index + next] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}

/// An arena's builder as a fast path writes it: text at its end, in room made beforehand.
protocol ArenaTextBuilder {
    /// The text's buffer (moved only by ``reserveText(_:)``).
    var text: UnsafeMutablePointer<UInt8> { get }
    /// Bytes of text written.
    var textSize: Int { get set }
    /// Room for `bytes` more bytes of text (and eight-byte stores past them).
    mutating func reserveText(_ bytes: Int)
    /// Forgets every item written.
    mutating func reset()
}

extension BreedArenaBuilder: ArenaTextBuilder {}

extension FactArenaBuilder: ArenaTextBuilder {}

/// A key of an item's object as the API writes it, with its quotes, the colon and the value's
/// opening quote when it is a string (`,"country":"`), matched as two eight-byte words.
struct FastKeys {
    let first: UInt64
    let second: UInt64
    let mask: UInt64
    let length: Int

    init(_ text: String) {
        let bytes = Array(text.utf8)
        precondition(bytes.count > 8 && bytes.count <= 16)
        func word(_ part: ArraySlice<UInt8>) -> UInt64 {
            part.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        first = word(bytes[0..<8])
        second = word(bytes[8...])
        mask = bytes.count == 16 ? ~0 : (1 << (8 * UInt64(bytes.count - 8))) - 1
        length = bytes.count
    }

    /// Whether the key is at `at`, which has 16 readable bytes.
    @inline(__always)
    func matches(_ at: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(at)
        return raw.loadUnaligned(as: UInt64.self) == first
            && raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & mask == second
    }
}
