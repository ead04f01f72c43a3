/// New trace and span ids: random, lowercase hex, never all zero (W3C Trace Context).
enum TraceIDs {
    /// 16 random bytes as 32 hex digits.
    static func traceID() -> String { hex(words: 2) }

    /// 8 random bytes as 16 hex digits.
    static func spanID() -> String { hex(words: 1) }

    /// `words` random 64-bit words as hex, written straight into the string's storage: every
    /// call makes three ids, so this is on the path of every traced call.
    private static func hex(words: Int) -> String {
        var random = SystemRandomNumberGenerator()
        while true {
            let values = (random.next() as UInt64, words > 1 ? random.next() as UInt64 : 0)
            // An all-zero id is invalid; the chance is 2^-64 at most, but it must not be sent.
            guard values.0 != 0 || values.1 != 0 else { continue }
            return String(unsafeUninitializedCapacity: words * 16) { buffer in
                for word in 0..<words {
                    let value = word == 0 ? values.0 : values.1
                    for nibble in 0..<16 {
                        let digit = UInt8(truncatingIfNeeded: value >> (60 - 4 * UInt64(nibble))) & 0xF
                        buffer[word * 16 + nibble] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                    }
                }
                return words * 16
            }
        }
    }
}
