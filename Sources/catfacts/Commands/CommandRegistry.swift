/// Every shell command, in the order `help` lists them: the one table the shell looks
/// commands up in, completes their names from, and documents.
struct CommandRegistry: Sendable {
    let commands: [Command]

    /// The shell's commands.
    static let standard = CommandRegistry(commands: [
        .breeds, .next, .prev, .first, .last, .show,
        .facts, .fact, .scroll,
        .group, .sort, .filter, .search,
        .metrics, .source, .set, .output, .help, .quit,
    ])

    /// The command answering to `name` (case-insensitive), if any.
    func command(named name: String) -> Command? {
        let name = name.lowercased()
        return commands.first { $0.names.contains(name) }
    }

    /// Every name and alias, sorted, for completion.
    var allNames: [String] { commands.flatMap(\.names).sorted() }

    /// The error for a name that is no command, suggesting the nearest one.
    func unknownCommandError(_ name: String) -> ShellError {
        if let suggestion = suggestion(for: name) {
            return ShellError("unknown command", advice: "did you mean '\(suggestion)'? (help lists the commands)")
        }
        return ShellError("unknown command", advice: "help lists the commands")
    }

    /// The command name nearest to `name`: one it starts, or one within two edits
    /// (a third for longer names).
    func suggestion(for name: String) -> String? {
        let name = name.lowercased()
        guard !name.isEmpty else { return nil }
        let names = allNames
        if let prefixed = names.first(where: { $0.hasPrefix(name) }) { return prefixed }
        let allowed = name.count > 5 ? 3 : 2
        let scored = names.map { ($0, EditDistance.between(name, $0)) }.filter { $0.1 <= allowed }
        return scored.min { $0.1 < $1.1 }?.0
    }
}
