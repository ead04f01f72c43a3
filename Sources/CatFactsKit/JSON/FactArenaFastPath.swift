/// The fast path of fact pages: the `data` array exactly as the API (and the mock) sends it,
/// `[{"fact":"…","length":N},…]` with no white space, each fact's text written straight into a
/// ``FactArenaBuilder`` as ``JSONScanner/fastBreeds(into:)`` writes breeds, its length read
/// as plain digits.
///
/// Anything else (white space, another key order, a missing, unknown or repeated key, a length
/// that is a string, negative, a fraction or `null`, `\u0000`, a lone surrogate, bad UTF-8, a
/// control character) makes it give up, having moved nothing: the scanner then reads the same
/// array the general way, so the results and error texts are the general path's.
extension JSONScanner {
    /// Reads the array at the scanner's offset into `builder` (which must be empty), or
    /// returns `false` with the scanner and the builder as they were.
    mutating func fastFacts(into builder: inout FactArenaBuilder) -> Bool {
        let keys = FastKeys.fact
        return fastArray(into: &builder) { base, index, end, out, builder in
            let fact = builder.beginFact()
            guard Self.readField(base, &index, end, keys.fact, emptyAllowed: true, trims: false, text: builder.text, out: &out,
                                 start: builder.starts + fact),
                  index &+ 16 <= end, keys.length.matches(base + index)
            else { return false }
            index &+= keys.length.length
            guard let length = Self.digits(base, &index, end), index < end, base[index] == Ascii.closeBrace else { return false }
            builder.lengths[fact] = length
            index &+= 1
            return true
        }
    }

    /// A number of 1 to 18 plain digits at `index` (no sign, fraction or exponent, no leading
    /// zero but for 0 itself), moving past it; `nil` for anything else.
    @inline(__always)
    private static func digits(_ base: UnsafePointer<UInt8>, _ index: inout Int, _ end: Int) -> Int? {
        var value = 0
        var count = 0
        while index < end, count < 19 {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            index &+= 1
            count &+= 1
        }
        guard count >= 1, count <= 18, count == 1 || base[index &- count] != UInt8(ascii: "0") else { return nil }
        // A fraction or an exponent goes to the general path, which says what it makes of it.
        guard index < end, base[index] != UInt8(ascii: "."), base[index] | 0x20 != UInt8(ascii: "e") else { return nil }
        return value
    }
}

extension FastKeys {
    /// The two keys of a fact, in the order the API sends them: the first opens the object and
    /// the text's string, the second follows the text's closing quote.
    struct FactKeys {
        let fact = FastKeys("{\"fact\":\"")
        let length = FastKeys(",\"length\":")
    }

    /// Made once, read once a page.
    static let fact = FactKeys()
}
