/// Writes JSON byte for byte as PHP's `json_encode` does with its default flags, so the mock's
/// bodies match the real (Laravel) service: `/` is escaped as `\/`, every non-ASCII character
/// becomes a lowercase `\uXXXX` escape (a surrogate pair above U+FFFF), and quotes, backslashes
/// and control characters are escaped.
///
/// It appends to a byte array: callers write keys and punctuation with ``raw(_:)`` and values
/// with the typed methods, in document order (no intermediate tree, pages of 1000 items are common).
struct PHPJSONWriter {
    /// The document written so far.
    private(set) var bytes: [UInt8] = []

    /// A writer whose buffer holds `capacity` bytes before it grows.
    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends ASCII text as is: punctuation and keys, e.g. `raw("{\"data\":[")`.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends an integer in decimal.
    mutating func int(_ value: Int) {
        // Small strings live inline, so this does not allocate.
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends `null`.
    mutating func null() {
        raw("null")
    }

    /// Appends `true` or `false`.
    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends an integer, or `null` for `nil`.
    mutating func int(_ value: Int?) {
        if let value { int(value) } else { null() }
    }

    /// Appends a quoted, escaped string, or `null` for `nil`.
    mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Appends a quoted string, escaped as PHP does.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { escape($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Escapes valid UTF-8 (a Swift string's storage), copying runs of plain ASCII in bulk.
    private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"),
               byte != UInt8(ascii: "/") {
                index += 1
                continue
            }
            if runStart < index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            }
            if byte < 0x80 {
                escapeASCII(byte)
                index += 1
            } else {
                let (scalar, width) = Self.decode(utf8, at: index)
                if scalar > 0xFFFF {
                    let offset = scalar - 0x10000
                    unicodeEscape(0xD800 + (offset >> 10))
                    unicodeEscape(0xDC00 + (offset & 0x3FF))
                } else {
                    unicodeEscape(scalar)
                }
                index += width
            }
            runStart = index
        }
        if runStart < count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
    }

    private mutating func escapeASCII(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case UInt8(ascii: "/"): raw("\\/")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default: unicodeEscape(UInt32(byte))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `\u` and four lowercase hex digits (PHP's case).
    private mutating func unicodeEscape(_ unit: UInt32) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "u"))
        bytes.append(Self.hexDigits[Int((unit >> 12) & 0xF)])
        bytes.append(Self.hexDigits[Int((unit >> 8) & 0xF)])
        bytes.append(Self.hexDigits[Int((unit >> 4) & 0xF)])
        bytes.append(Self.hexDigits[Int(unit & 0xF)])
    }

    /// Decodes the multi-byte sequence starting at `index`; the input is a Swift string's
    /// storage, so it is valid UTF-8 and every continuation byte is present.
    private static func decode(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = UInt32(utf8[index])
        func continuation(_ offset: Int) -> UInt32 { UInt32(utf8[index + offset]) & 0x3F }
        if lead < 0xE0 {
            return ((lead & 0x1F) << 6 | continuation(1), 2)
        } else if lead < 0xF0 {
            return ((lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2), 3)
        } else {
            return ((lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6 | continuation(3), 4)
        }
    }
}
