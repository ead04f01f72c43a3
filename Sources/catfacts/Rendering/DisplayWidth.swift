/// How many terminal columns text takes: a small `wcwidth(3)` that does not depend on the
/// C library's locale tables (which a minimal system or a `C` locale lacks).
///
/// Wide East-Asian characters and emoji count 2, combining marks and other zero-width
/// characters 0, control characters 0, everything else 1. A grapheme cluster takes the
/// width of its widest scalar, so "é" written as e + U+0301 takes 1.
enum DisplayWidth {
    /// Columns taken by `text`.
    static func of(_ text: some StringProtocol) -> Int {
        // Plain ASCII (nearly every cell) needs no Unicode lookups.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// Columns taken by one character (grapheme cluster).
    static func of(_ character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars {
            // U+FE0F asks for emoji presentation, which terminals draw two columns wide.
            if scalar.value == 0xFE0F { return 2 }
            widest = max(widest, of(scalar))
        }
        return widest
    }

    /// Columns taken by one scalar on its own.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B || (0x1160...0x11FF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks (Unicode 15, UAX #11), coarsely.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// `text` cut to at most `width` columns, ending in "…" when something was cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let w = of(character)
            // One column stays free for the ellipsis.
            if used + w > width - 1 { break }
            kept.append(character)
            used += w
        }
        // A cut between words reads better without the space before the ellipsis.
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + "…"
    }

    /// `text` padded with spaces to `width` columns (on the left when `right` is set).
    static func pad(_ text: String, to width: Int, right: Bool = false) -> String {
        let gap = max(0, width - of(text))
        let spaces = String(repeating: " ", count: gap)
        return right ? spaces + text : text + spaces
    }
}
