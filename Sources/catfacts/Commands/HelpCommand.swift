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
        let chosen = try arguments.values.first.map { (name) throws(ShellError) in
            guard let command = registry.command(named: name) else { throw registry.unknownCommandError(name) }
            return command
        }
        let output = session.output
        let text = chosen.map { helpText($0, output: output) } ?? commandList(registry, style: output.style)
        output.show(helpReport(chosen.map { [$0] } ?? registry.commands, full: chosen != nil, text: text))
    }

    /// The help of `commands` (`full`: with their details): a JSON object each; as rows, the
    /// JSON's fields as columns, aliases separated by spaces (never the text, which CSV
    /// readers cannot read); `text` for people and plain alike.
    private static func helpReport(_ commands: [Command], full: Bool, text: [String]) -> Report {
        let helps = commands.map { CommandHelp($0, full: full) }
        let columns = ["name", "aliases", "synopsis", "summary"] + (full ? ["details"] : [])
        let records: [[String?]] = helps.map { help in
            [help.name, help.aliases.joined(separator: " "), help.synopsis, help.summary] + (full ? [help.details ?? ""] : [])
        }
        return Report(documents: helps.map(JSONDocument.init), data: .rows(Rows(columns: columns.map { Rows.Column($0) }, records: records)),
                      lines: text)
    }

    /// `help`: every command's synopsis and summary, then the fields and the keys.
    private static func commandList(_ registry: CommandRegistry, style: Style) -> [String] {
        let width = registry.commands.map { DisplayWidth.of($0.synopsis) }.max() ?? 0
        var lines = [style.bold("Commands") + " (help COMMAND tells more):"]
        lines += registry.commands.map { "  " + DisplayWidth.pad($0.synopsis, to: width) + "  " + $0.summary }
        lines += [
            "Fields: \(Breed.Field.allCases.map(\.rawValue).joined(separator: ", ")).",
            "Commands are separated by ; or new lines; # starts a comment; quote names with spaces or not.",
            "Tab completes commands, fields and breed names; Up recalls history; Ctrl-S searches live (search alone); Ctrl-C cancels a request; Ctrl-D quits.",
        ]
        return lines
    }

    /// `help NAME`: the usage, the aliases, the details wrapped to the width (100 at most).
    private static func helpText(_ command: Command, output: Output) -> [String] {
        var lines = ["usage: " + output.style.bold(command.synopsis)]
        if !command.aliases.isEmpty { lines.append("also: " + command.aliases.joined(separator: ", ")) }
        for paragraph in command.details.split(separator: "\n\n", omittingEmptySubsequences: false) {
            lines += [""] + TextWrap.lines(String(paragraph), width: min(output.width, 100))
        }
        return lines
    }
}

/// A command's help as JSON (`help` in JSON Lines: one object per command).
private struct CommandHelp: Encodable, Sendable {
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
