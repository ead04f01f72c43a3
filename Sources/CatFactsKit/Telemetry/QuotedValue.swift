/// A value a caller or the environment gave, as an error or a warning quotes it: control
/// characters escaped (``ControlEscapes``), so a message stays one safe line, and at most 80
/// characters, so a 2 kB URL does not swamp it.
enum QuotedValue {
    static func shown(_ text: String) -> String {
        let escaped = ControlEscapes.escaped(text)
        return escaped.count > 80 ? String(escaped.prefix(80)) + "..." : escaped
    }
}
