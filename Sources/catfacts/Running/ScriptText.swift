/// Splits what the user typed, or a script, into commands: separated by `;` or newlines,
/// `#` starting a comment, words separated by blanks, with 'single' and "double" quotes
/// and backslash escapes for words holding blanks, `;` or `#`.
///
/// ```swift
/// ScriptText.invocations(in: "breeds 2; show 'Turkish Van'  # a comment")
/// // [["breeds", "2"], ["show", "Turkish Van"]]
/// ```
enum ScriptText {
    /// The commands in `text`, in order; empty commands and comments are left out.
    static func invocations(in text: String) -> [Invocation] {
        var result: [Invocation] = []
        var words: [String] = []
        var word = ""
        var inWord = false
        var raw = ""
        var quote: Character?
        var escaped = false
        var comment = false

        func endWord() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        func endCommand(problem: String? = nil) {
            endWord()
            let trimmed = trimmingBlanks(raw)
            if !words.isEmpty || problem != nil {
                result.append(Invocation(words: words, text: trimmed, problem: problem))
            }
            words = []
            raw = ""
        }

        for character in text {
            if comment {
                if character == "\n" {
                    comment = false
                    endCommand()
                }
                continue
            }
            if escaped {
                escaped = false
                raw.append(character)
                if character != "\n" {
                    word.append(character)
                    inWord = true
                }
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\", open == "\"" {
                    escaped = true
                } else if character == "\n" {
                    quote = nil
                    endCommand(problem: "unterminated \(open) quote; close it")
                    continue
                } else {
                    word.append(character)
                }
                raw.append(character)
                continue
            }
            switch character {
            case "\\":
                escaped = true
                raw.append(character)
            case "'", "\"":
                quote = character
                inWord = true
                raw.append(character)
            case ";", "\n", "\r\n":
                endCommand()
            case "#" where !inWord:
                comment = true
            case " ", "\t":
                endWord()
                raw.append(character)
            default:
                word.append(character)
                inWord = true
                raw.append(character)
            }
        }
        if let open = quote {
            endCommand(problem: "unterminated \(open) quote; close it")
        } else {
            endCommand()
        }
        return result
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmingBlanks(_ text: String) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else { return "" }
        return String(text[first...last])
    }
}
