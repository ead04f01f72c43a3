/// One command as typed: its words (quotes removed) and its text (for error messages).
struct Invocation: Sendable, Equatable {
    /// The command name and its arguments.
    var words: [String]
    /// The command as typed, trimmed: what an error line says failed.
    var text: String
    /// Why the text could not be split into words (an unterminated quote), if it could not.
    var problem: String?
}
