/// Protocol Buffers' wire format, the few kinds OTLP's messages use: varints, 64-bit fixed
/// numbers and doubles, and length-delimited fields (strings, bytes, nested messages, packed
/// repeated numbers). Written by hand: the messages the library sends are few and fixed, and a
/// protobuf library would weigh more in the shipped library than all of them together.
///
/// Fields at their default value are left out, as proto3 writes them; a nested message is
/// always written (an empty one says the field is set).
///
/// Everything goes into one buffer: a nested message is written in place and its length put
/// in front of it afterwards (moving it only when the length takes more than one byte), and
/// strings and ids are copied straight in, so a span costs no allocation of its own.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1024)
    }

    private enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2
    }

    private mutating func key(_ field: UInt64, _ type: WireType) {
        varint(field << 3 | type.rawValue)
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private mutating func littleEndian(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A varint field: an `int64`, `uint32`, `bool` or enum (negative numbers as 10 bytes, as
    /// protobuf writes `int64`).
    mutating func varint(_ field: UInt64, _ value: Int) {
        guard value != 0 else { return }
        key(field, .varint)
        varint(UInt64(bitPattern: Int64(value)))
    }

    mutating func bool(_ field: UInt64, _ value: Bool) {
        varint(field, value ? 1 : 0)
    }

    /// A `fixed64` (or, with a negative number's bit pattern, `sfixed64`) field.
    mutating func fixed64(_ field: UInt64, _ value: UInt64) {
        guard value != 0 else { return }
        key(field, .fixed64)
        littleEndian(value)
    }

    mutating func double(_ field: UInt64, _ value: Double) {
        guard value != 0 || value.sign == .minus else { return }
        key(field, .fixed64)
        littleEndian(value.bitPattern)
    }

    /// A `double` field that is `optional` in the schema: written even when zero.
    mutating func presentDouble(_ field: UInt64, _ value: Double) {
        key(field, .fixed64)
        littleEndian(value.bitPattern)
    }

    /// A field of a `oneof`: written even at its default value, which says which one is set.
    mutating func forcedVarint(_ field: UInt64, _ value: UInt64) {
        key(field, .varint)
        varint(value)
    }

    /// A string field of a `oneof`: written even when empty.
    mutating func forcedString(_ field: UInt64, _ value: String) {
        key(field, .lengthDelimited)
        varint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func string(_ field: UInt64, _ value: String) {
        guard !value.isEmpty else { return }
        key(field, .lengthDelimited)
        varint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// A `bytes` field given as hex digits (a trace or span id, as the library keeps them):
    /// the bytes they spell, two digits each; left out when empty or not hex of even length
    /// (the library's own ids always are).
    mutating func hexBytes(_ field: UInt64, _ hex: String) {
        var hex = hex
        hex.withUTF8 { digits in
            guard !digits.isEmpty, digits.count % 2 == 0 else { return }
            let start = bytes.count
            key(field, .lengthDelimited)
            varint(UInt64(digits.count / 2))
            var index = 0
            while index < digits.count {
                guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else {
                    bytes.removeSubrange(start...)
                    return
                }
                bytes.append(high << 4 | low)
                index += 2
            }
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    mutating func bytes(_ field: UInt64, _ value: [UInt8]) {
        guard !value.isEmpty else { return }
        key(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A nested message, written by `body` in place; its length is put in front of it after.
    mutating func message(_ field: UInt64, _ body: (inout ProtobufWriter) -> Void) {
        key(field, .lengthDelimited)
        let lengthAt = bytes.count
        bytes.append(0)  // the length's first byte
        body(&self)
        var length = UInt64(bytes.count - lengthAt - 1)
        guard length >= 0x80 else {
            bytes[lengthAt] = UInt8(length)
            return
        }
        // A longer length: room for its other bytes, the message moved once.
        var encoded: [UInt8] = []
        while length >= 0x80 {
            encoded.append(UInt8(truncatingIfNeeded: length) | 0x80)
            length >>= 7
        }
        encoded.append(UInt8(length))
        bytes[lengthAt] = encoded[0]
        bytes.insert(contentsOf: encoded[1...], at: lengthAt + 1)
    }

    /// A packed `repeated fixed64` field.
    mutating func packedFixed64(_ field: UInt64, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        key(field, .lengthDelimited)
        varint(UInt64(values.count * 8))
        for value in values { littleEndian(value) }
    }

    /// A packed `repeated double` field.
    mutating func packedDouble(_ field: UInt64, _ values: [Double]) {
        packedFixed64(field, values.map(\.bitPattern))
    }
}
