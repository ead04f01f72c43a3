/// Turns a ``Report`` into the text of one output format (`set output`, `--json`, `--csv`).
/// There is one per ``OutputMode``; ``Output`` chooses it, and no command does.
protocol Renderer {
    /// What `report` prints in this format.
    func render(_ report: Report) -> Rendition
}

/// What a renderer makes of a report: lines (ended by newlines), or CSV records (ended by CRLF).
enum Rendition: Equatable {
    case lines([String])
    case records([[String]])
}
