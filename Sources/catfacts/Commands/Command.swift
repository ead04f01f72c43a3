/// One shell command as a value: its name, what it takes, its help, how Tab completes its
/// arguments, and what it does. Every command is registered in ``CommandRegistry``; the
/// shell looks commands up there, never by a `switch` on their names.
///
/// ```swift
/// static let source = Command(
///     name: "source", synopsis: "source", summary: "where the data comes from",
///     details: "Prints the server, ...") { session, arguments throws(ShellError) in
///     try arguments.expectNone()
///     session.showSource()
/// }
/// ```
struct Command: Sendable {
    /// What a command does, on the session, with its arguments.
    typealias Action = @Sendable (isolated Session, Arguments) async throws(ShellError) -> Void

    /// The name typed to run it.
    let name: String
    /// Other names for it (`exit` for `quit`).
    let aliases: [String]
    /// Its usage line, e.g. `breeds [PAGE]`.
    let synopsis: String
    /// One line for `help`.
    let summary: String
    /// The text of `help NAME`, below the synopsis; blank lines separate paragraphs.
    let details: String
    /// How Tab completes its arguments.
    let completion: ArgumentCompletion
    let action: Action

    init(name: String, aliases: [String] = [], synopsis: String, summary: String, details: String,
         completion: ArgumentCompletion = .none, action: @escaping Action) {
        self.name = name
        self.aliases = aliases
        self.synopsis = synopsis
        self.summary = summary
        self.details = details
        self.completion = completion
        self.action = action
    }

    /// Every name it answers to.
    var names: [String] { [name] + aliases }
}
