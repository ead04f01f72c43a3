/// ANSI colour and emphasis, or nothing at all: only on a terminal, and never when
/// `NO_COLOR` is set (https://no-color.org).
struct Style: Sendable {
    /// Whether escape sequences are written.
    let enabled: Bool

    /// Colour for a stream that is (or is not) a terminal, as the environment allows.
    static func forStream(isTerminal: Bool, environment: [String: String]) -> Style {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Style(enabled: isTerminal && !noColor && environment["TERM"] != "dumb")
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    /// Errors.
    func red(_ text: String) -> String { wrap(text, "31") }
    /// Data not live from the server (offline catalog, cache).
    func yellow(_ text: String) -> String { wrap(text, "33") }
    /// Group headings.
    func heading(_ text: String) -> String { wrap(text, "1;36") }
    /// The spinner.
    func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
