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
