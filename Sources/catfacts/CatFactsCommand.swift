import ArgumentParser
import CatFactsKit
import CommandLineArguments
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `catfacts`: the Cat Facts shell. Interactive on a terminal (readline, history, Tab
/// completion); with `-c`, a script file or a non-terminal stdin, it runs the commands and
/// exits, non-zero if one failed. See `help` inside and catfacts(1).
@main
struct CatFactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catfacts",
        abstract: "Browse the Cat Facts API: breeds, facts and the client's own metrics.",
        discussion: """
            On a terminal it opens a prompt (type help). With -c, a SCRIPT file, or commands \
            piped to stdin, it runs them and exits. When the server cannot be reached, answers \
            come from the bundled offline catalog, labelled so (unless --no-fallback).

            Off a terminal (a pipe, a file, -o) tables carry no colour and are not cut to a \
            width (unless COLUMNS is set); the spinner shows only when stderr is a terminal. \
            --json prints JSON Lines: every line, on stdout and stderr, is one JSON value \
            (errors as {"command","error","advice"}, notices as {"warning"}). --csv prints \
            RFC 4180 CSV: a header row, fields quoted when needed, CRLF line ends.

            Exit status: 0 every command succeeded; 1 a command failed; 2 a usage error (a \
            wrong flag or value, a SCRIPT or -o FILE that cannot be used); 3 every command \
            succeeded but an answer came from the bundled offline catalog because the server \
            could not be reached (never with --offline); 130 Ctrl-C stopped a script.
            """,
        version: LibraryVersion.string)

    @Option(name: .long, help: ArgumentHelp("The API's base URL, http or https (default \(ClientOptions.defaultBaseURL)).", valueName: "URL"))
    var baseURL: String?

    @Flag(help: "Send nothing: answer from the bundled offline catalog.")
    var offline = false

    @Flag(help: "Start catfacts-mock (installed beside catfacts) on a free loopback port and use it.")
    var mock = false

    @Option(help: ArgumentHelp("The page cache file, for every server (default: $XDG_CACHE_HOME/catfacts/cache.sqlite; in memory with --mock).", valueName: "PATH"))
    var cache: String?

    @Option(name: .customLong("cache-ttl"), parsing: .unconditional, help: ArgumentHelp("Seconds a cached page answers without asking the server (\(ClientOption.cacheTTL.flagRangeText), default 300); after that it is revalidated, and still answers when the server cannot.", valueName: "SECONDS"))
    var cacheTTL: Double?

    @Flag(name: .customLong("no-cache"), help: "Run without the offline cache.")
    var noCache = false

    @Option(help: ArgumentHelp("Export spans and metrics to this OTLP/HTTP collector (e.g. http://127.0.0.1:4318); \"\" for none. Default: the OTEL_EXPORTER_OTLP_* environment variables.", valueName: "URL"))
    var otlp: String?

    @Flag(name: .customLong("no-fallback"), help: "Fail when the server cannot be reached, instead of answering from the bundled catalog.")
    var noFallback = false

    @Flag(help: "Print JSON Lines: every line of output is one JSON value, errors and notices included (as `set output json`).")
    var json = false

    @Flag(help: "Print CSV: RFC 4180, a header row, CRLF line ends (as `set output csv`).")
    var csv = false

    @Option(name: .customShort("o"), help: ArgumentHelp("Write results to FILE instead of stdout, as `.output FILE` does.", valueName: "FILE"))
    var outputPath: String?

    @Flag(name: [.customLong("bail"), .customLong("bail", withSingleDash: true)],
          help: "Stop a script at its first failed command (exit status 1), as sqlite3's -bail does.")
    var bail = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a whole call may take, its retries and their waits included (over 0, at most \(ClientOption.day / 1000), in steps of 0.001; default: no bound but each attempt's: 5 s to connect, 30 s in all).", valueName: "SECONDS"))
    var timeout: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Times a failed request is sent again (\(ClientOption.retries.flagRangeText), default 1).", valueName: "N"))
    var retries: Int?

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("A PEM file of CA certificates to verify https servers with, instead of the system's (a company proxy's or a mirror's own CA). Default: CURL_CA_BUNDLE, else SSL_CERT_FILE and SSL_CERT_DIR, else the system's bundle.", valueName: "PATH"))
    var caFile: String?

    @Option(name: .customLong("max-connections"), parsing: .unconditional, help: ArgumentHelp("Connections open to the server at once (\(ClientOption.maxConnections.flagRangeText), default \(ClientOptions.defaultMaxConnections)): the most requests under way at once, read-ahead pages included.", valueName: "N"))
    var maxConnections: Int?

    @Option(name: .customShort("c"), help: ArgumentHelp("Run these commands (separated by ;) and exit.", valueName: "COMMANDS"))
    var commands: String?

    @Argument(help: ArgumentHelp("A file of commands to run, then exit (- reads stdin).", valueName: "SCRIPT"))
    var script: String?

    @Flag(name: .customLong("manual-page"), help: .hidden)
    var manualPage = false

    /// The library's options table as JSON Lines, for the tests that hold the fronts to it.
    @Flag(name: .customLong("options-table"), help: .hidden)
    var optionsTable = false

    /// As ArgumentParser's `main`, except that a usage error exits 2, as the other usage
    /// errors do (a script that cannot be read, a wrong base URL), not 64 (EX_USAGE), and
    /// that the arguments are main's own `argv` (``ProgramArguments``), which is there
    /// without `/proc`.
    static func main() {
        guard let arguments = ProgramArguments.read() else {
            Descriptor.writeAll("catfacts: \(ProgramArguments.unreadable)\n", to: STDERR_FILENO)
            exitStatus(2)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                let message = fullMessage(for: error)
                Descriptor.writeAll(message + (message.hasSuffix("\n") ? "" : "\n"), to: STDERR_FILENO)
                exitStatus(2)
            }
            exit(withError: error)
        }
    }

    private static func exitStatus(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }

    func validate() throws {
        if mock, baseURL != nil { throw ValidationError("--mock and --base-url exclude each other.") }
        if mock, offline { throw ValidationError("--mock and --offline exclude each other.") }
        if offline, noFallback { throw ValidationError("--offline answers from the bundled catalog: it excludes --no-fallback.") }
        if cache != nil, noCache { throw ValidationError("--cache and --no-cache exclude each other.") }
        // Ranges are the library's (ClientOption), in the unit each flag takes.
        if let cacheTTL { try ClientOption.cacheTTL.checkFlag(cacheTTL) }
        if commands != nil, script != nil { throw ValidationError("give either -c COMMANDS or a SCRIPT, not both.") }
        if json, csv { throw ValidationError("--json and --csv exclude each other.") }
        if let timeout { try ClientOption.deadline.checkFlag(timeout) }
        if let retries { try ClientOption.retries.checkFlag(Double(retries)) }
        if let maxConnections { try ClientOption.maxConnections.checkFlag(Double(maxConnections)) }
    }

    func run() throws {
        if manualPage {
            print(ManualPage.render(help: Self.helpMessage(columns: 10_000), registry: .standard,
                                    version: LibraryVersion.string), terminator: "")
            return
        }
        if optionsTable {
            OptionsTableRow.all.forEach { print($0) }
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let streams = Streams.current(environment: environment)
        let console = Console(style: Style(enabled: false),
                              errorStyle: Style.forStream(isTerminal: streams.stderrIsTerminal, environment: environment),
                              jsonLines: json)
        // --version, --help and --manual-page need nothing more; every command needs the
        // runtime's threads, which need /proc.
        if let missing = ProcFilesystem.missing() {
            console.error("catfacts: \(missing)")
            throw ExitCode.failure
        }
        guard SignalPipe.install() else {
            console.error("catfacts: cannot set up signal handling: out of file descriptors; close some programs and try again")
            throw ExitCode.failure
        }
        let cacheChoice = CacheChoice.choose(path: cache, noCache: noCache, mock: mock, environment: environment)
        if case .file(let path) = cacheChoice, path == CacheChoice.defaultPath(environment: environment),
           let notice = CacheChoice.removeEarlierPerServerFiles(beside: path) {
            console.notice("catfacts: cache: \(notice)")
        }
        // Read before anything starts, so a wrong path fails at once.
        let scriptText = try script.flatMap { path in path == "-" ? nil : try readScript(path, console: console) }
        let outputFile = try outputPath.map { path throws in try openOutput(path, console: console) }

        let server: MockProcess? = mock ? try startMock(environment: environment, console: console) : nil
        defer { server?.stop() }
        let info = ServerInfo(url: server?.baseURL ?? baseURL ?? ClientOptions.defaultBaseURL,
                              origin: server != nil ? .mock : baseURL != nil ? .baseURL : .service,
                              offline: offline, fallback: !noFallback)
        let network = NetworkActivity()
        let client = try makeClient(info, cache: cacheChoice, network: network, console: console)
        TraceEnvironment.join(client, environment: environment, console: console)
        for warning in client.cacheWarnings { console.notice("catfacts: cache: \(warning)") }
        let registry = CommandRegistry.standard
        let seen = SeenValues()
        let output = Output(streams: streams, mode: json ? .json : csv ? .csv : .table, file: outputFile)
        let session = Session(client: client, network: network, server: info, cache: cacheChoice, output: output,
                              registry: registry, seen: seen)
        let shell = Shell(session: session, bail: bail)

        let status: Shell.ExitStatus
        if let commands {
            status = shell.runScript(commands)
        } else if let scriptText {
            status = shell.runScript(scriptText)
        } else if script != nil || !streams.stdinIsTerminal {
            status = shell.runStandardInput()
        } else {
            // No banner in JSON Lines or CSV, where every line is data.
            if !json, !csv {
                Descriptor.writeAll(banner(info, style: Style.forStream(isTerminal: streams.stdoutIsTerminal, environment: environment)),
                                    to: STDOUT_FILENO)
            }
            let editor = LineEditor(prompt: "catfacts> ", historyPath: HistoryFile.path(environment: environment),
                                    tabCompleter: TabCompleter(registry: registry, seen: seen))
            shell.runInteractive(editor: editor)
            editor.close()
            status = .success
        }
        // What the exporter holds goes out before the process ends (bounded: 2 s at most).
        client.close()
        if status != .success { throw ExitCode(status.rawValue) }
    }

    /// The text of the script file at `script`.
    private func readScript(_ script: String, console: Console) throws -> String {
        let descriptor = open(script, O_RDONLY)
        guard descriptor >= 0 else {
            console.error("catfacts: \(script): cannot read the script: \(String(cString: strerror(errno))); check the path")
            throw ExitCode(2)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            console.error("catfacts: \(script): cannot read the script: it is not UTF-8 text; check the file")
            throw ExitCode(2)
        }
        return text
    }

    /// The `-o` file, created (or emptied); a path that cannot be written is a usage error.
    private func openOutput(_ path: String, console: Console) throws -> OutputFile {
        switch OutputFile.create(path) {
        case .success(let file): return file
        case .failure(let error):
            console.failure(error, what: "-o")
            throw ExitCode(Shell.ExitStatus.usage.rawValue)
        }
    }

    private func startMock(environment: [String: String], console: Console) throws -> MockProcess {
        do {
            return try MockProcess.start(environment: environment)
        } catch {
            // One sentence: the mock's own reason already says what to do when it gives one.
            let advice = error.saidByMock ? "" : "; or start catfacts-mock yourself and use --base-url"
            console.error("catfacts: --mock: \(error.description)\(advice)")
            throw ExitCode.failure
        }
    }

    /// The client: short connect timeout and one retry (`--retries`), as fits a person
    /// waiting at a prompt; the whole call bounded by `--timeout` when given; the offline fallback on unless `--no-fallback`; requests observed for the
    /// spinner and the offline notice; nothing sent with `--offline`.
    private func makeClient(_ info: ServerInfo, cache: CacheChoice, network: NetworkActivity,
                            console: Console) throws -> CatFactsClient {
        let connections = maxConnections ?? ClientOptions.defaultMaxConnections
        let certificates = CertificateAuthorities.choose(option: caFile, environment: ProcessInfo.processInfo.environment)
        let transport: any HTTPTransport = info.offline
            ? OfflineTransport() : CurlTransport(maxConnections: connections, certificates: certificates)
        var options = ClientOptions(
            baseURL: info.url,
            limits: TransportLimits(connectTimeout: .seconds(5), totalTimeout: .seconds(30)),
            retry: RetryPolicy(retries: retries ?? 1),
            offlineFallback: info.fallback)
        options.maxConnections = connections
        if let timeout { options.deadline = .milliseconds(Int64((timeout * 1000).rounded())) }
        if let cacheTTL { options.cacheTTL = .milliseconds(Int64((cacheTTL * 1000).rounded())) }
        options.otlpEndpoint = otlp
        options.caFile = caFile
        switch cache {
        case .file(let path): options.cachePath = path
        case .memory: break
        case .off: options.cacheMaxBytes = 0
        }
        do {
            let client = try CatFactsClient(options: options, transport: transport)
            client.setActivityListener { network.observe($0) }
            client.metrics.setListener { _ in network.recorded() }
            return client
        } catch {
            // A refused option names its flag itself (CatFactsError.invalidOption).
            let example = error.option == .baseURL ? "; e.g. --base-url \(ClientOptions.defaultBaseURL)" : ""
            console.error("catfacts: \(error.shellDescription)\(example)")
            throw ExitCode(2)
        }
    }

    private func banner(_ info: ServerInfo, style: Style) -> String {
        let state = info.offline ? "offline: answers from the bundled catalog" : "\(info.url) (\(info.origin.rawValue))"
        return style.bold("catfacts \(LibraryVersion.string)") + " · \(state)\n"
            + style.dim("help lists the commands · Tab completes · Ctrl-C cancels a request · Ctrl-D quits") + "\n"
    }
}
