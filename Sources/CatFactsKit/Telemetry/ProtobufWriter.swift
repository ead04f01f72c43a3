/// Protocol Buffers' wire format, the few kinds OTLP's messages use: varints, 64-bit fixed
/// numbers and doubles, and length-delimited fields (strings, bytes, nested messages, packed
/// repeated numbers). Written by hand: the messages the library sends are few and fixed, and a
/// protobuf library would weigh more in the shipped library than all of them together.
///
/// Fields at their default value are left out, as proto3 writes them; a nested message is
/// always written (an empty one says the field is set).
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

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
        bytes(field, Array(value.utf8))
    }

    mutating func bytes(_ field: UInt64, _ value: [UInt8]) {
        guard !value.isEmpty else { return }
        key(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A nested message, written by `body` into a writer of its own.
    mutating func message(_ field: UInt64, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        key(field, .lengthDelimited)
        varint(UInt64(nested.bytes.count))
        bytes.append(contentsOf: nested.bytes)
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
