/// One cat fact.
public struct Fact: Sendable, Hashable {
    /// The fact's text, Unicode as the service sends it (curly quotes included).
    public var text: String
    /// The fact's length as the service counts it; `max_length` filters on it.
    public var length: Int

    /// Creates a fact; `length` defaults to the text's length in characters.
    public init(_ text: String, length: Int? = nil) {
        self.text = text
        self.length = length ?? text.count
    }
}
