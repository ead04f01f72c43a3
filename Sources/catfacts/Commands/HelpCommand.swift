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
        let output = session.output
        let style = output.style
        if output.mode == .json || output.mode == .csv {
            let chosen = try arguments.values.first.map { (name) throws(ShellError) in
                guard let command = registry.command(named: name) else { throw registry.unknownCommandError(name) }
                return [command]
            } ?? registry.commands
            let helps = chosen.map { CommandHelp($0, full: !arguments.values.isEmpty) }
            if output.mode == .json {
                output.print(helps.map { JSONOutput.string($0) })
            } else {
                // The JSON's fields as columns (details only for one command); aliases
                // separated by spaces. Never the table's text, which CSV readers cannot read.
                let full = !arguments.values.isEmpty
                output.printRecords([["name", "aliases", "synopsis", "summary"] + (full ? ["details"] : [])]
                                    + helps.map { [$0.name, $0.aliases.joined(separator: " "), $0.synopsis, $0.summary]
                                        + (full ? [$0.details ?? ""] : []) })
            }
            return
        }
        guard let name = arguments.values.first else {
            let width = registry.commands.map { DisplayWidth.of($0.synopsis) }.max() ?? 0
            var lines = [style.bold("Commands") + " (help COMMAND tells more):"]
            lines += registry.commands.map { "  " + DisplayWidth.pad($0.synopsis, to: width) + "  " + $0.summary }
            lines += [
                "Fields: \(Breed.Field.allCases.map(\.rawValue).joined(separator: ", ")).",
                "Commands are separated by ; or new lines; # starts a comment; quote names with spaces or not.",
                "Tab completes commands, fields and breed names; Up recalls history; Ctrl-S searches live (search alone); Ctrl-C cancels a request; Ctrl-D quits.",
            ]
            output.print(lines)
            return
        }
        guard let command = registry.command(named: name) else { throw registry.unknownCommandError(name) }
        var lines = ["usage: " + style.bold(command.synopsis)]
        if !command.aliases.isEmpty { lines.append("also: " + command.aliases.joined(separator: ", ")) }
        for paragraph in command.details.split(separator: "\n\n", omittingEmptySubsequences: false) {
            lines += [""] + TextWrap.lines(String(paragraph), width: min(output.width, 100))
        }
        output.print(lines)
    }
}

/// A command's help as JSON (`help` in JSON Lines: one object per command).
private struct CommandHelp: Encodable {
    var name: String
    var aliases: [String]
    var synopsis: String
    var summary: String
    /// The text of `help NAME`, only when one command is asked about.
    var details: String?

    init(_ command: Command, full: Bool) {
        name = command.name
        aliases = command.aliases
        synopsis = command.synopsis
        summary = command.summary
        // Paragraphs kept, the source's line breaks within them not.
        details = full ? command.details.split(separator: "\n\n", omittingEmptySubsequences: false)
            .map { $0.split(separator: "\n").joined(separator: " ") }.joined(separator: "\n\n") : nil
    }
}
