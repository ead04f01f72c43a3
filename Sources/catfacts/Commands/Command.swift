/// One shell command as a value: its name, what it takes, its help, how Tab completes its
/// arguments, and what it does. Every command is registered in ``CommandRegistry``; the
/// shell looks commands up there, never by a `switch` on their names.
///
/// ```swift
/// static let source = Command(
///     name: "source", synopsis: "source", summary: "where the data comes from",
///     details: "Prints the server, ...") { session, arguments throws(ShellError) in
///     try arguments.expectNone()
///     printSource(session)
/// }
/// ```
struct Command: Sendable {
    /// What a command does, on the session, with its arguments.
    typealias Action = @Sendable (isolated Session, Arguments) async throws(ShellError) -> Void

    // Properties, not constants: the memberwise initializer then takes the defaults of
    // `aliases` and `completion`. Every command is a `static let`, so none ever changes.

    /// The name typed to run it.
    var name: String
    /// Other names for it (`exit` for `quit`).
    var aliases: [String] = []
    /// Its usage line, e.g. `breeds [PAGE]`.
    var synopsis: String
    /// One line for `help`.
    var summary: String
    /// The text of `help NAME`, below the synopsis; blank lines separate paragraphs.
    var details: String
    /// How Tab completes its arguments.
    var completion: ArgumentCompletion = .none
    /// What it does.
    var action: Action

    /// Every name it answers to.
    var names: [String] { [name] + aliases }
}
