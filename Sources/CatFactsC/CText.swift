import CatFactsKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text from a C caller, checked where it enters: UTF-8, a bounded length, and no control
/// characters where it would reach a request line or a header. Each error names the argument
/// or option (`what`) and, where there is one, the byte at fault, without echoing the text.
enum CText {
    /// The text at `pointer`, or an argument error giving the first byte that is not UTF-8.
    static func string(_ pointer: UnsafePointer<CChar>, what: String) throws(CatFactsError) -> String {
        if let text = String(validatingCString: pointer) { return text }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                        count: strlen(pointer))
        throw .argument("\(what): not valid UTF-8 at byte \(firstInvalidByte(bytes))")
    }

    /// Refuses `text` longer than `limit` bytes.
    static func requireLength(_ text: String, what: String, atMost limit: Int) throws(CatFactsError) {
        let length = text.utf8.count
        guard length <= limit else { throw .argument("\(what) is \(length) bytes long; at most \(limit)") }
    }

    /// Refuses control characters (CR, LF, NUL ... DEL) and spaces: what goes into a URL.
    static func requireNoControlOrSpace(_ text: String, what: String) throws(CatFactsError) {
        for (offset, byte) in text.utf8.enumerated() where byte <= 0x20 || byte == 0x7F {
            throw .argument("\(what) contains a control character or a space at byte \(offset)")
        }
    }

    /// Where decoding `bytes` as UTF-8 first fails (their count when it does not).
    private static func firstInvalidByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }
}
