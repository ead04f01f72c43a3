import CatFactsKit

/// Where results go and how they look: the console (results on stdout or the file of `-o`
/// and `.output`, errors and notices on stderr), the format (`set output`), the width
/// listings are fitted to, and the labels of data that is not live from the server.
/// The session holds one; commands print their results through it as a ``Report``, which
/// the renderer of the format turns into text (``show(_:)``): the format is private here,
/// so no command can choose how a result looks.
struct Output: Sendable {
    /// Prints results, errors and notices.
    private(set) var console: Console
    /// How results are printed (`set output`, `--json`, `--csv`): read only by ``renderer``,
    /// the console (errors in JSON Lines) and the few behaviours it changes, below.
    private var mode: OutputMode
    /// The file results go to (`-o`, `.output`), when not stdout.
    private(set) var file: OutputFile?
    /// Which standard streams are terminals, and the environment.
    let streams: Streams

    /// Results in `mode`, to `file` when given, else to stdout.
    init(streams: Streams, mode: OutputMode, file: OutputFile?) {
        self.streams = streams
        self.mode = mode
        console = Console(style: Style(enabled: false),
                          errorStyle: Style.forStream(isTerminal: streams.stderrIsTerminal, environment: streams.environment),
                          jsonLines: mode == .json)
        redirect(to: file)
    }

    /// Sends results to `file` from now on (`nil`: back to stdout), closing the file used
    /// before; colour only on a terminal.
    mutating func redirect(to file: OutputFile?) {
        self.file?.finish()
        self.file = file
        console.sendResults(to: file?.descriptor,
                            style: Style.forStream(isTerminal: toTerminal, environment: streams.environment))
    }

    /// Changes the format; JSON Lines turns errors and notices into JSON too.
    mutating func setMode(_ mode: OutputMode) {
        self.mode = mode
        console.jsonLines = mode == .json
    }

    /// Styling for results.
    var style: Style { console.style }

    /// The format's name, as `set output` takes it.
    var modeName: String { mode.rawValue }

    /// Prints `report` in the output's format.
    func show(_ report: Report) {
        switch renderer.render(report) {
        case .lines(let lines): console.print(lines)
        case .records(let records): console.printRecords(records)
        }
    }

    /// The renderer of the format: the one place that chooses how results look.
    private var renderer: any Renderer {
        switch mode {
        case .table: TableRenderer(width: width, style: style)
        case .json: JSONRenderer()
        case .plain: PlainRenderer()
        case .csv: CSVRenderer()
        }
    }

    // The format changes behaviour, not only looks, in two places: a screen redrawn in place
    // is no place for data, whose every line a reader of JSON or CSV (or of plain, for
    // `scroll`) takes as a result.

    /// `scroll` goes a screenful at a time, redrawn in place: at a terminal, in table mode.
    var scrollsByScreens: Bool { isInteractive && mode == .table }

    /// `search` alone (and Ctrl-S) runs live search: at a terminal, in table or plain mode
    /// (the breed chosen is printed as `show` prints it; JSON and CSV need a PREFIX).
    var offersLiveSearch: Bool { isInteractive && (mode == .table || mode == .plain) }

    /// Results go to a terminal: colour, fitting, and the screens that redraw in place.
    var toTerminal: Bool { file == nil && streams.stdoutIsTerminal }

    /// Keys can be read and results redrawn in place (`scroll` by screenfuls, `metrics
    /// --watch`, live search).
    var isInteractive: Bool { file == nil && streams.isInteractiveTerminal }

    /// The width listings are fitted to: the terminal's (measured now, so a resized terminal
    /// re-fits); off a terminal, `$COLUMNS` when set, else no limit (nothing is cut or wrapped).
    var width: Int {
        if toTerminal { return streams.size.columns }
        return streams.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? Self.unlimitedWidth
    }

    /// A width no line reaches (and no sum of widths overflows).
    static let unlimitedWidth = 1 << 30

    /// "(offline catalog)" or "(cache)" for data that is not live from the server.
    func sourceTag(_ source: Source) -> String? {
        TableRenderer.tag(source, style: style)
    }

    /// ``sourceTag(_:)`` after a title, with a space before it; empty for live data.
    func sourceLabel(_ source: Source) -> String {
        sourceTag(source).map { " " + $0 } ?? ""
    }

    /// Prints lines of results as they are, whatever the format (what a screen redrawn in
    /// place prints before and after it).
    func print(_ lines: [String]) { console.print(lines) }

    /// Prints one line of results as it is.
    func print(_ line: String) { console.print(line) }

    /// Writes `text` to the results as it is (what a screen redrawn in place sends).
    func write(_ text: String) { console.write(text) }
}
