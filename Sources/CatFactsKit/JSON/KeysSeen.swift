/// Which known keys an object has shown so far. A key given twice counts the first time, as
/// in Foundation's `JSONDecoder` and the options parser: a later value is only checked to be
/// JSON, never read.
struct KeysSeen {
    private var bits: UInt64 = 0

    /// Whether known key `key` (an index of a ``KeySet`` of at most 64) is met for the first
    /// time; marks it met. An unknown key (-1) is never first: its value is skipped.
    mutating func first(_ key: Int) -> Bool {
        guard (0..<64).contains(key) else { return false }
        let bit: UInt64 = 1 << key
        defer { bits |= bit }
        return bits & bit == 0
    }
}
