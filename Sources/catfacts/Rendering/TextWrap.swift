/// Word wrapping measured in display columns, for text too long for one line (facts).
enum TextWrap {
    /// `text` broken into lines of at most `width` columns, at spaces where possible; a
    /// word longer than a line is cut.
    static func lines(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in text.split(whereSeparator: \.isWhitespace) {
            var word = String(word)
            var wordWidth = DisplayWidth.of(word)
            if used > 0, used + 1 + wordWidth > width {
                lines.append(line)
                line = ""
                used = 0
            }
            while wordWidth > width {
                let (head, rest) = split(word, at: width - used)
                line += head
                lines.append(line)
                line = ""
                used = 0
                word = rest
                wordWidth = DisplayWidth.of(word)
            }
            if used > 0 {
                line += " "
                used += 1
            }
            line += word
            used += wordWidth
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The longest head of `word` that fits in `width` columns, and the rest.
    private static func split(_ word: String, at width: Int) -> (String, String) {
        var head = ""
        var used = 0
        var index = word.startIndex
        while index < word.endIndex {
            let w = DisplayWidth.of(word[index])
            if used + w > width, !head.isEmpty { break }
            head.append(word[index])
            used += w
            index = word.index(after: index)
        }
        return (head, String(word[index...]))
    }
}
