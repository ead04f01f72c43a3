import CatFactsKit

/// The shell's state and the services commands use: the client, the settings, the last
/// listing (for `next` and `show N`), where results go (``Output``), the spinner. Commands
/// run on it one at a time, isolated to it (see ``Command/Action``); what they do is in
/// `Commands/`, how they draw in `Rendering/`.
actor Session {
    let client: CatFactsClient
    let network: NetworkActivity
    let server: ServerInfo
    /// Where pages are cached (`source` reports it).
    let cache: CacheChoice
    /// Where results, errors and notices go, and how (the format, the width, JSON Lines, a file).
    var output: Output
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

    init(client: CatFactsClient, network: NetworkActivity, server: ServerInfo, cache: CacheChoice, output: Output,
         registry: CommandRegistry, seen: SeenValues, settings: Settings = Settings()) {
        self.client = client
        self.network = network
        self.server = server
        self.cache = cache
        self.output = output
        self.registry = registry
        self.seen = seen
        self.settings = settings
        let streams = output.streams
        spinner = Spinner(enabled: streams.stderrIsTerminal,
                          style: Style.forStream(isTerminal: streams.stderrIsTerminal, environment: streams.environment),
                          environment: streams.environment) { [network] in network.waitingFor }
    }

    /// Runs one command as typed; prints its error, if any, as one line on stderr.
    /// Returns whether it succeeded.
    func execute(_ invocation: Invocation) async -> Bool {
        if let problem = invocation.problem {
            output.console.failure(ShellError(problem), what: invocation.text)
            return false
        }
        guard let name = invocation.words.first else { return true }
        guard let command = registry.command(named: name) else {
            output.console.failure(registry.unknownCommandError(name), what: name)
            return false
        }
        network.clearFailure()
        do throws(ShellError) {
            try await command.action(self, Arguments(values: Array(invocation.words.dropFirst()), synopsis: command.synopsis))
            return true
        } catch {
            spinner.stop()
            output.console.failure(error, what: invocation.text)
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
            output.console.notice("catfacts: cannot reach \(server.url) (\(Self.reason(error))); showing the bundled offline catalog")
        case .reached where servingOffline:
            servingOffline = false
            output.console.notice("catfacts: reached \(server.url) again; showing live data")
        default:
            break
        }
    }

    /// Why a request got no response, briefly.
    private static func reason(_ error: CatFactsError) -> String {
        switch error {
        case .network(let cause, _): "network error: \(cause)"
        case .timeout(let seconds, _): "no answer within \(CatFactsError.format(seconds)) s"
        default: error.shellDescription
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

    /// The source of results that carry none (a fact, a breed, a query): the bundled catalog
    /// when the session is answering offline, else none to tell.
    var offlineSource: Source? { answersOffline ? .offlineCatalog : nil }

    /// ``offlineSource`` as a label after a title (the screens that draw their own).
    var offlineLabel: String { offlineSource.map(output.sourceLabel) ?? "" }

    // MARK: listings

    /// The last paged listing, or an error saying to list something first.
    func currentPosition() throws(ShellError) -> PagePosition {
        guard let position else { throw ShellError("nothing is listed yet", advice: "breeds or facts lists a page") }
        return position
    }

    /// Sets the page size, re-cutting the current page so its first item stays in view.
    func changePageSize(to size: Int) {
        if let current = position {
            let firstIndex = (current.page - 1) * settings.pageSize
            position = PagePosition(kind: current.kind, page: firstIndex / size + 1, lastPage: nil)
        }
        settings.pageSize = size
        scrollList = nil
    }

    /// Makes `rows` the numbering `show N` uses, and their names and values completable.
    func number(_ rows: [(number: Int, breed: Breed)]) {
        numbered.replace(with: rows)
        seen.add(rows.map(\.breed))
    }
}
