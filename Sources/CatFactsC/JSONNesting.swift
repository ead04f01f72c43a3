import CatFactsKit

/// The nesting limit of the JSON a C caller hands in (options, queries), checked in one pass
/// before anything decodes it: a decoder that recurses per level (and retries a value as each
/// type in turn) spends time that grows faster than the input on deep nesting, and a deep
/// enough input exhausts a thread's stack. No option or query needs more than 3 levels.
enum JSONNesting {
    /// The most arrays and objects inside one another that a caller's JSON may hold.
    static let limit = 64

    /// Throws an argument error naming `what`, the limit and where it was passed when `text`
    /// nests deeper than `limit`. Linear in the length of `text`; brackets inside strings
    /// (escaped quotes included) do not count. Whether `text` is valid JSON is the decoder's
    /// business: this only bounds the depth it will see.
    static func check(_ text: String, what: String) throws(CatFactsError) {
        var depth = 0
        var inString = false
        var escaped = false
        var offset = 0
        for byte in text.utf8 {
            defer { offset += 1 }
            if inString {
                if escaped { escaped = false }
                else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit {
                    throw .argument("\(what): JSON nested deeper than \(limit) levels (level \(depth) at byte \(offset)); options and queries need at most 3")
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }
}
