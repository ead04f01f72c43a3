import CatFactsKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The shell's state and the services commands use: the client, the settings, the last
/// listing (for `next` and `show N`), the console, the spinner. Commands run on it one at a
/// time, isolated to it (see ``Command/Action``).
actor Session {
    let client: CatFactsClient
    let network: NetworkActivity
    let server: ServerInfo
    /// Where pages are cached (`source` reports it).
    let cache: CacheChoice
    /// Where results, errors and notices go, and how (JSON Lines, a file): see ``redirect(to:)``.
    var console: Console
    let streams: Streams
    let spinner: Spinner
    let registry: CommandRegistry
    /// Names and values for Tab completion (shared with the line editor).
    let seen: SeenValues

    var settings: Settings
    /// The last paged listing (`breeds`, `facts`), for `next`, `prev`, `first`, `last`.
    var position: PagePosition?
    /// The numbers of the last breed listing, for `show N`.
    var numbered = NumberedBreeds()
    /// Where the last result came from.
    var lastSource: Source?
    /// The windowed list `scroll` walks, kept between scrolls while the page size holds.
    var scrollList: PagedList<Breed>?
    /// The server could not be reached and answers come from the bundled catalog (said once).
    private(set) var servingOffline = false
    /// Set by `quit`; read by the main thread after each command.
    nonisolated let quitRequested = Latch()
    /// Set when an answer came from the bundled catalog because the server could not be
    /// reached (not with `--offline`, which asks for it): the exit status says so.
    nonisolated let answeredFromCatalog = Latch()
    /// The file results go to (`-o`, `.output`), when not stdout.
    private(set) var outputFile: OutputFile?

    init(client: CatFactsClient, network: NetworkActivity, server: ServerInfo, cache: CacheChoice, streams: Streams,
         registry: CommandRegistry, seen: SeenValues, settings: Settings = Settings(), outputFile: OutputFile? = nil) {
        self.client = client
        self.outputFile = outputFile
        self.cache = cache
        self.settings = settings
        self.network = network
        self.server = server
        self.streams = streams
        self.registry = registry
        self.seen = seen
        let environment = streams.environment
        console = Console(style: Style.forStream(isTerminal: streams.stdoutIsTerminal, environment: environment),
                          errorStyle: Style.forStream(isTerminal: streams.stderrIsTerminal, environment: environment),
                          jsonLines: settings.output == .json)
        if let outputFile {
            console.results = outputFile.descriptor
            console.style = Style(enabled: false)
        }
        spinner = Spinner(enabled: streams.stderrIsTerminal,
                          style: Style.forStream(isTerminal: streams.stderrIsTerminal, environment: environment),
                          environment: environment) { [network] in network.waitingFor }
    }

    /// Runs one command as typed; prints its error, if any, as one line on stderr.
    /// Returns whether it succeeded.
    func execute(_ invocation: Invocation) async -> Bool {
        if let problem = invocation.problem {
            console.failure(ShellError(problem), what: invocation.text)
            return false
        }
        guard let name = invocation.words.first else { return true }
        guard let command = registry.command(named: name) else {
            console.failure(registry.unknownCommandError(name), what: name)
            return false
        }
        network.clearFailure()
        do throws(ShellError) {
            try await command.action(self, Arguments(values: Array(invocation.words.dropFirst()), synopsis: command.synopsis))
            return true
        } catch {
            spinner.stop()
            console.failure(error, what: invocation.text)
            return false
        }
    }

    // MARK: requests

    /// Runs a client call with the spinner naming its requests, says once when the server
    /// cannot be reached (and the answer comes from the bundled catalog), and turns its
    /// failure into a ``ShellError``.
    func request<Value>(_ call: () async throws(CatFactsError) -> Value) async throws(ShellError) -> Value {
        spinner.start()
        let result: Result<Value, CatFactsError>
        do {
            result = .success(try await call())
        } catch {
            result = .failure(error)
        }
        spinner.stop()
        noteReachability()
        switch result {
        case .success(let value):
            return value
        case .failure(let error):
            // A request cut short by Ctrl-C may fail as a network error: it was cancelled.
            if Task.isCancelled { throw .cancelled }
            throw ShellError(error)
        }
    }

    /// Says on stderr when the server stops (or starts again) answering, once each time.
    func noteReachability() {
        switch network.takeReachability() {
        case .unreachable(let error) where server.fallback && !server.offline:
            guard !servingOffline else { return }
            servingOffline = true
            console.notice("catfacts: cannot reach \(server.url) (\(Self.reason(error))); showing the bundled offline catalog")
        case .reached where servingOffline:
            servingOffline = false
            console.notice("catfacts: reached \(server.url) again; showing live data")
        default:
            break
        }
    }

    /// Why a request got no response, briefly.
    private static func reason(_ error: CatFactsError) -> String {
        switch error {
        case .network(let cause, _): "network error: \(cause)"
        case .timeout(let seconds, _): "no answer within \(CatFactsError.format(seconds)) s"
        default: error.description
        }
    }

    /// Notes where a result that carries no source (a fact, a breed, a query) came from:
    /// the bundled catalog when answering offline, else the server.
    func noteUnlabelledResult() {
        note(answersOffline ? .offlineCatalog : .network)
    }

    /// Notes where the last result came from, and whether it is the bundled catalog
    /// standing in for a server that could not be reached.
    func note(_ source: Source) {
        lastSource = source
        if source == .offlineCatalog, !server.offline { answeredFromCatalog.set() }
    }

    /// Whether answers now come from the bundled catalog rather than the server.
    var answersOffline: Bool { server.offline || servingOffline }

    // MARK: output

    /// How results are printed now.
    var output: OutputMode { settings.output }

    /// The width listings are fitted to: the terminal's (measured now, so a resized terminal
    /// re-fits); off a terminal, `$COLUMNS` when set, else no limit (nothing is cut or wrapped).
    var width: Int {
        if resultsToTerminal { return streams.size.columns }
        return streams.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? Self.unlimitedWidth
    }

    /// A width no line reaches (and no sum of widths overflows).
    static let unlimitedWidth = 1 << 30

    /// Results go to a terminal: colour, fitting, and the views that redraw in place.
    var resultsToTerminal: Bool { outputFile == nil && streams.stdoutIsTerminal }

    /// Keys can be read and results redrawn in place (`scroll` by screenfuls, `metrics --watch`).
    var isInteractive: Bool { outputFile == nil && streams.isInteractiveTerminal }

    /// Sends results to `file` from now on (`nil`: back to stdout), closing the file used before.
    func redirect(to file: OutputFile?) {
        outputFile?.finish()
        outputFile = file
        console.results = file?.descriptor ?? STDOUT_FILENO
        console.style = resultsToTerminal
            ? Style.forStream(isTerminal: true, environment: streams.environment) : Style(enabled: false)
    }

    /// Changes the output mode; JSON Lines turns errors and notices into JSON too.
    func setOutput(_ mode: OutputMode) {
        settings.output = mode
        console.jsonLines = mode == .json
    }

    /// "(offline catalog)" or "(cache)" for data that is not live from the server.
    func sourceTag(_ source: Source) -> String? {
        switch source {
        case .network: nil
        case .cache: console.style.yellow("(cache)")
        case .offlineCatalog: console.style.yellow("(offline catalog)")
        }
    }

    /// ``sourceTag(_:)`` after a title, with a space before it; empty for live data.
    func sourceLabel(_ source: Source) -> String {
        sourceTag(source).map { " " + $0 } ?? ""
    }

    /// The label for results that carry no source (a fact, a breed, a query): from the
    /// bundled catalog when the session is answering offline.
    var offlineLabel: String { answersOffline ? sourceLabel(.offlineCatalog) : "" }

    /// Makes `rows` the numbering `show N` uses, and their names and values completable.
    func number(_ rows: [(number: Int, breed: Breed)]) {
        numbered.replace(with: rows)
        seen.add(rows.map(\.breed))
    }
}
