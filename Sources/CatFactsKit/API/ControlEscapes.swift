/// Text from the server (or from an error message quoting it) made safe to print on a
/// terminal or to hand to a C caller: control characters and the escape sequences they start
/// are shown as escapes (`\e`, `\n`, `\x07`, `\u{9B}`), never sent, so hostile text cannot
/// move the cursor, retitle the window or change colours, and a message stays one line with
/// no NUL inside. The shell prints through it; the C face escapes every message with it.
///
/// ```swift
/// ControlEscapes.escaped("Evil\u{1B}[2J cat")  // "Evil\\e[2J cat"
/// ```
package enum ControlEscapes {
    /// Whether `scalar` is a C0 or C1 control character, or DEL.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` with every control character written as an escape.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: escape(scalar).unicodeScalars)
        }
        return String(out)
    }

    /// JSON text with DEL and the C1 controls (which JSON may carry raw, and some terminals
    /// obey) written as `\u00XX` escapes: the same JSON value, safe on a terminal. C0
    /// controls are escaped by every JSON writer already.
    package static func jsonSafe(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                out.append(contentsOf: ("\\u00" + hex(scalar.value, digits: 2)).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The escape shown for one control character.
    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0x80...0x9F: return "\\u{" + hex(scalar.value, digits: 2) + "}"
        default: return "\\x" + hex(scalar.value, digits: 2)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
