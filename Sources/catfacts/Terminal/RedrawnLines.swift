/// The lines a screen drew last, and the text that puts new lines in their place: what
/// lets `metrics --watch`, `scroll` and live search redraw in place rather than scroll on.
struct RedrawnLines {
    /// Where the cursor waits between two drawings.
    enum Cursor: Equatable {
        /// At the start of the line after the last one drawn (`metrics --watch`, `scroll`).
        case below
        /// On the first line drawn, at this column (live search's line being typed).
        case onFirstLine(column: Int)
    }

    /// How many lines the last drawing took.
    private var count = 0
    /// Where the last drawing left the cursor.
    private var cursor = Cursor.below

    /// The text that erases the last drawing and draws `lines` where it began, leaving the
    /// cursor at `next`.
    mutating func replace(with lines: [String], cursor next: Cursor) -> String {
        var text = erase()
        switch next {
        case .below:
            text += lines.map { $0 + "\n" }.joined()
        case .onFirstLine(let column):
            // CR LF: the terminal may be in a mode that does not add the CR itself.
            text += lines.joined(separator: "\r\n") + TerminalCodes.up(lines.count - 1) + "\r" + TerminalCodes.right(column)
        }
        count = lines.count
        cursor = next
        return text
    }

    /// The text that erases the last drawing, leaving the cursor where it began.
    mutating func erase() -> String {
        let top = cursor == .below ? TerminalCodes.up(count) : ""
        count = 0
        cursor = .below
        return top + TerminalCodes.clearBelow
    }
}
