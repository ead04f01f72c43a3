import CatFactsKit

/// What live search (`search` alone) shows under the prompt, as a value: the text typed,
/// the latest answer, the selected match; ``lines(width:height:style:label:)`` draws it
/// (``LiveSearchScreen`` puts it on the terminal, in place).
struct LiveSearchView {
    /// What the search line starts with.
    static let prompt = "search: "
    /// The last line, saying which keys do what.
    static let keysHint = "↑/↓ select · Enter shows · Esc leaves"

    /// The text typed so far.
    private(set) var text = ""
    /// How many times the text was set: the generation of the answer awaited.
    private(set) var generation = 0
    /// The answer to the latest text, once it came.
    private(set) var answer: LiveSearch.Answer?
    /// The selected match (0: the first).
    private(set) var selected = 0

    /// The matches of the latest answer (none before it came, or when it failed).
    var matches: [Breed] {
        guard let answer, case .success(let breeds) = answer.result else { return [] }
        return breeds
    }

    /// Whether the answer shown answers the text as it is now (else a newer text is being
    /// searched, and the matches shown are the older text's, dimmed).
    var isCurrent: Bool { answer != nil && answer?.generation == generation }

    /// The breed Enter shows: none while the text is being searched.
    var selection: Breed? { isCurrent && matches.indices.contains(selected) ? matches[selected] : nil }

    /// Applies `key` to the text or the selection. Returns whether the text changed (and
    /// must be searched).
    mutating func apply(_ key: KeyPress) -> Bool {
        switch key {
        case .text(let typed):
            text += typed
        case .backspace:
            guard !text.isEmpty else { return false }
            text.removeLast()
        case .clearLine:
            guard !text.isEmpty else { return false }
            text = ""
        case .up:
            selected = max(0, selected - 1)
            return false
        case .down:
            selected = min(max(0, matches.count - 1), selected + 1)
            return false
        case .enter, .escape, .endOfInput, .other:
            return false
        }
        generation += 1
        return true
    }

    /// Takes `answer` if it answers the latest text (an older one is never shown).
    mutating func receive(_ answer: LiveSearch.Answer) {
        guard answer.generation == generation, answer.generation != self.answer?.generation else { return }
        self.answer = answer
        selected = 0
    }

    /// The lines to draw: the search line, what the answer says, the matches (the selected
    /// one marked with `>`), the keys. `label` tags data that is not live (`(offline catalog)`).
    /// At most `height` lines (a terminal made smaller since the search began shows fewer
    /// matches, so that nothing scrolls off the top).
    func lines(width: Int, height: Int, style: Style, label: (Source) -> String) -> [String] {
        var lines = [DisplayWidth.truncate(Self.prompt + ControlEscapes.escaped(text), to: width)]
        lines.append(DisplayWidth.truncate(status(style: style, label: label), to: width))
        let room = max(1, height - 3)
        // The window of matches drawn keeps the selected one in it.
        let first = max(0, min(selected - room + 1, matches.count - room))
        for (index, breed) in matches.enumerated().dropFirst(first).prefix(room) {
            let name = ControlEscapes.escaped(breed.breed)
            let country = breed.country.map { "  " + ControlEscapes.escaped($0) } ?? ""
            let row = DisplayWidth.truncate((isCurrent && index == selected ? "> " : "  ") + name + country, to: width)
            lines.append(!isCurrent ? style.dim(row) : index == selected ? style.bold(row) : row)
        }
        lines.append(style.dim(DisplayWidth.truncate(Self.keysHint, to: width)))
        return lines
    }

    /// One line on the state of the search.
    private func status(style: Style, label: (Source) -> String) -> String {
        let quoted = "'" + ControlEscapes.escaped(text) + "'"
        guard let answer, isCurrent else {
            return style.dim(text.isEmpty && generation == 0 ? "type the start of a breed's name" : "searching \(quoted)…")
        }
        switch answer.result {
        case .failure(let error):
            return style.red("search failed: " + ControlEscapes.escaped(error.shellDescription))
        case .success(let breeds):
            let said: String
            if text.isEmpty {
                said = "the first \(breeds.count) breeds"
            } else if breeds.isEmpty {
                said = "no breed starts with \(quoted)"
            } else {
                said = "\(breeds.count) \(breeds.count == 1 ? "breed" : "breeds") starting with \(quoted)"
            }
            return said + label(answer.source)
        }
    }

    /// Where the cursor goes on the search line.
    func cursorColumn(width: Int) -> Int {
        min(max(0, width - 1), DisplayWidth.of(Self.prompt + ControlEscapes.escaped(text)))
    }
}
