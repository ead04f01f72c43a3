/// A key as the live views read it, parsed from the bytes a terminal sends: text, the
/// arrows, Enter, Backspace, Esc and the few control keys they answer to.
enum KeyPress: Equatable {
    /// Printable text (one character, or a UTF-8 character of several bytes).
    case text(String)
    case up
    case down
    case enter
    case backspace
    /// Esc alone (not the start of a longer sequence).
    case escape
    /// Ctrl-U: empties the text.
    case clearLine
    /// Ctrl-D.
    case endOfInput
    /// Anything else (other sequences, other control keys): ignored.
    case other

    /// The keys in `bytes`, in order: one read may carry several (typed fast or pasted).
    /// An Esc followed by `[` or `O` starts a sequence (`ESC [ A` is ↑), else it is Esc.
    static func parse(_ bytes: [UInt8]) -> [KeyPress] {
        var keys: [KeyPress] = []
        var index = 0
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            keys += String(decoding: text, as: UTF8.self).map { .text(String($0)) }
            text.removeAll()
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte != 0x7F {
                text.append(byte)
                index += 1
                continue
            }
            flushText()
            switch byte {
            case 0x1B:
                let (key, length) = escapeSequence(bytes[index...])
                keys.append(key)
                index += length
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x15: keys.append(.clearLine)
            case 0x04: keys.append(.endOfInput)
            case 0x10: keys.append(.up)     // Ctrl-P, as readline
            case 0x0E: keys.append(.down)   // Ctrl-N
            default: keys.append(.other)
            }
            index += 1
        }
        flushText()
        return keys
    }

    /// The key an escape sequence starting `bytes` stands for, and its length in bytes.
    private static func escapeSequence(_ bytes: ArraySlice<UInt8>) -> (KeyPress, Int) {
        let start = bytes.startIndex
        guard bytes.count >= 2, bytes[start + 1] == UInt8(ascii: "[") || bytes[start + 1] == UInt8(ascii: "O") else {
            return (.escape, 1)
        }
        // CSI: parameters and intermediates (0x20–0x3F), then a final byte (0x40–0x7E).
        var end = start + 2
        while end < bytes.endIndex, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.endIndex else { return (.other, bytes.count) }
        let key: KeyPress = switch bytes[end] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        default: .other
        }
        return (key, end - start + 1)
    }
}
