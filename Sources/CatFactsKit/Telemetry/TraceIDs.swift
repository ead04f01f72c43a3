/// New trace and span ids: random, lowercase hex, never all zero (W3C Trace Context).
enum TraceIDs {
    /// 16 random bytes as 32 hex digits.
    static func traceID() -> String { hex(bytes: 16) }

    /// 8 random bytes as 16 hex digits.
    static func spanID() -> String { hex(bytes: 8) }

    private static func hex(bytes: Int) -> String {
        var random = SystemRandomNumberGenerator()
        while true {
            var text = ""
            text.reserveCapacity(bytes * 2)
            var nonZero = false
            for _ in 0..<bytes {
                let byte = UInt8.random(in: .min ... .max, using: &random)
                nonZero = nonZero || byte != 0
                text += byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
            }
            // An all-zero id is invalid; the chance is 2^-64 at most, but it must not be sent.
            if nonZero { return text }
        }
    }
}
