import CatFactsKit

extension Command {
    /// `set page-size N`, `set output table|json|plain`.
    static let set = Command(
        name: "set", synopsis: "set page-size N|output MODE", summary: "session settings",
        details: """
            set page-size N: items per page for breeds, facts and scroll (1..1000; default
            10); the current page is re-cut so its first item stays in view.

            set output MODE: table (numbered, fitted to the terminal), json (JSON Lines:
            the library's JSON, one value a line, errors and notices included, as --json
            gives), plain (tab-separated, no headings), or csv (RFC 4180, a header row, CRLF
            line ends, as --csv gives).

            set alone shows the settings.
            """,
        completion: .positions([["page-size", "output"], OutputMode.allCases.map(\.rawValue)])
    ) { session, arguments throws(ShellError) in
        guard let name = arguments.values.first else {
            session.output.show(settingsReport(pageSize: session.settings.pageSize, output: session.output.modeName))
            return
        }
        try arguments.expect(atMost: 2)
        guard arguments.values.count == 2 else { throw arguments.usage("the value is missing") }
        let value = arguments.values[1]
        switch name.lowercased() {
        case "page-size":
            let size = try Arguments.integer(value, "page size", in: 1...Settings.maxPageSize, synopsis: arguments.synopsis)
            session.changePageSize(to: size)
        case "output":
            guard let mode = OutputMode(rawValue: value.lowercased()) else {
                throw ShellError("'\(value)' is not an output mode", advice: "use table, json, plain or csv")
            }
            session.output.setMode(mode)
        default:
            throw arguments.usage("'\(name)' is not a setting")
        }
    }

    /// `set` alone: the settings as one JSON object, as `name`/`value` rows, and as
    /// `NAME VALUE` lines for people and plain alike.
    private static func settingsReport(pageSize: Int, output: String) -> Report {
        let settings = [("page-size", String(pageSize)), ("output", output)]
        return Report(documents: [JSONDocument(SettingsReport(pageSize: pageSize, output: output))],
                      data: .rows(Rows(columns: [Rows.Column("name"), Rows.Column("value")], records: settings.map { [$0.0, $0.1] })),
                      lines: settings.map { "\($0.0) \($0.1)" })
    }
}

/// `set` in JSON: the settings as one object.
private struct SettingsReport: Encodable, Sendable {
    var pageSize: Int
    var output: String

    enum CodingKeys: String, CodingKey {
        case pageSize = "page_size", output
    }
}
