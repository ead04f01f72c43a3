import CatFactsKit

extension Command {
    /// `help [CMD]`.
    static let help = Command(
        name: "help", aliases: ["?"], synopsis: "help [COMMAND]", summary: "the commands, or one in full",
        details: "Lists the commands, or tells everything about one.",
        completion: .commands
    ) { session, arguments throws(ShellError) in
        try arguments.expect(atMost: 1)
        let registry = session.registry
        let style = session.console.style
        guard let name = arguments.values.first else {
            let width = registry.commands.map { DisplayWidth.of($0.synopsis) }.max() ?? 0
            var lines = [style.bold("Commands") + " (help COMMAND tells more):"]
            lines += registry.commands.map { "  " + DisplayWidth.pad($0.synopsis, to: width) + "  " + $0.summary }
            lines += [
                "Fields: \(Breed.Field.allCases.map(\.rawValue).joined(separator: ", ")).",
                "Commands are separated by ; or new lines; # starts a comment; quote names with spaces or not.",
                "Tab completes commands, fields and breed names; Up recalls history; Ctrl-C cancels a request; Ctrl-D quits.",
            ]
            session.console.print(lines)
            return
        }
        guard let command = registry.command(named: name) else { throw registry.unknownCommandError(name) }
        var lines = ["usage: " + style.bold(command.synopsis)]
        if !command.aliases.isEmpty { lines.append("also: " + command.aliases.joined(separator: ", ")) }
        for paragraph in command.details.split(separator: "\n\n", omittingEmptySubsequences: false) {
            lines += [""] + TextWrap.lines(String(paragraph), width: min(session.width, 100))
        }
        session.console.print(lines)
    }
}
