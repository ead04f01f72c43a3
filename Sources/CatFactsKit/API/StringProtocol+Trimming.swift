extension StringProtocol {
    /// The text without the white space (spaces, tabs, newlines: `Character.isWhitespace`)
    /// at either end: Foundation's `trimmingCharacters(in:)`, which the library does not link.
    func trimmed() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
