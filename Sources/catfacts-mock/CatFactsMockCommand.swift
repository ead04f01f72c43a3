import ArgumentParser
import CatFactsMock
import CatFactsKit
import CommandLineArguments
import Foundation

/// `catfacts-mock`: serves the Cat Facts API locally until SIGINT or SIGTERM.
@main
struct CatFactsMockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catfacts-mock",
        abstract: "A local server with the Cat Facts API, for tests, demos and benchmarks.",
        discussion: """
            Serves /breeds, /facts and /fact as https://catfact.ninja answers them. Its first \
            line on stdout is "listening on http://HOST:PORT"; it runs until SIGINT or SIGTERM.

            GET /_mock/stats answers {"requests":R,"in_flight":I,"peak_in_flight":P,"hold":H,\
            "rendered_pages":N,"rendered_bytes":B}: requests served, those in flight (arrived, \
            response head not yet made) and the most at once, the --hold gate (off, holding, \
            released or "timed out"), and the pages kept rendered. It is not counted, delayed, \
            held or faulted.

            A page of /breeds or /facts is rendered once and its bytes served again (up to \
            --render-cache-mb, oldest dropped first); faults still act on every response.
            """)

    @Option(help: "Address to bind (loopback unless told otherwise).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 8106

    @Option(help: "Serve a synthetic catalog of N breeds instead of the bundled one.")
    var breeds: Int?

    @Option(help: "Serve a synthetic catalog of N facts instead of the bundled one.")
    var facts: Int?

    @Option(name: .customLong("latency-ms"), help: "Delay before each response head, in milliseconds.")
    var latencyMS = 0

    @Option(name: .customLong("jitter-ms"), help: "Random +/- spread added to the latency, in milliseconds.")
    var jitterMS = 0

    @Option(name: .customLong("fail-rate"), help: "Probability (0...1) that a request gets a fault.")
    var failRate = 0.0

    @Option(help: "Faults to inject, comma-separated: \(MockFault.allCases.map(\.rawValue).joined(separator: ",")) (default 500), picked as --fault-order says.")
    var faults: String?

    @Option(name: .customLong("fault-order"),
            help: "How a failing request's fault is picked from --faults: \(MockFaultOrder.allCases.map(\.rawValue).joined(separator: " or ")) (default turn; --seed repeats random draws).")
    var faultOrder = MockFaultOrder.turn.rawValue

    @Option(name: .customLong("fail-first"), help: "Fault the first N requests, whatever the fail rate.")
    var failFirst = 0

    @Option(name: .customLong("max-limit"), help: "Server cap on the limit parameter.")
    var maxLimit = 1000

    @Option(name: .customLong("slow-ms"), help: "How long a slow fault spreads the body over, in milliseconds.")
    var slowMS = 2000

    @Option(name: .customLong("retry-after"), help: "The Retry-After of 429 and 503 faults, in seconds.")
    var retryAfter = 1

    @Option(help: "Seed for fault choice, jitter and /fact, for repeatable runs.")
    var seed: UInt64?

    @Option(help: ArgumentHelp("Hold each request until N are in flight at once, then let them all go and hold none after (so a test sees N under way together); GET /_mock/stats says the peak.", valueName: "N"))
    var hold: Int?

    @Option(name: .customLong("hold-after"), help: ArgumentHelp("Let the first K requests pass --hold unheld (e.g. a list's first page, fetched alone).", valueName: "K"))
    var holdAfter = 0

    @Option(name: .customLong("hold-ms"), help: ArgumentHelp("Open the --hold gate anyway this long after it first held a request, in milliseconds.", valueName: "MS"))
    var holdMS = 60_000

    @Option(name: .customLong("render-cache-mb"), help: ArgumentHelp("Body megabytes of rendered /breeds and /facts pages kept to serve again; 0 renders every response.", valueName: "MB"))
    var renderCacheMB = 64

    @Flag(name: .customLong("stop-at-end-of-input"),
          help: "Also stop when standard input ends: a parent that holds a pipe to it (catfacts --mock) takes the mock with it when it exits, however it exits.")
    var stopAtEndOfInput = false

    @Flag(name: .customLong("log-requests"),
          help: "Print a line per request on stdout after the listening line: \"request GET /breeds?page=1 traceparent=00-...\" (traceparent=- when absent).")
    var logRequests = false

    mutating func validate() throws {
        for (name, value) in [("--port", port), ("--latency-ms", latencyMS), ("--jitter-ms", jitterMS),
                              ("--fail-first", failFirst), ("--slow-ms", slowMS), ("--retry-after", retryAfter),
                              ("--breeds", breeds ?? 0), ("--facts", facts ?? 0), ("--hold-after", holdAfter),
                              ("--render-cache-mb", renderCacheMB)] where value < 0 {
            throw ValidationError("\(name) must not be negative (got \(value)).")
        }
        guard port <= 65535 else { throw ValidationError("--port must be in 0...65535 (got \(port)).") }
        guard maxLimit >= 1 else { throw ValidationError("--max-limit must be at least 1 (got \(maxLimit)).") }
        if let hold, hold < 1 { throw ValidationError("--hold must be at least 1 (got \(hold)).") }
        guard holdMS >= 1 else { throw ValidationError("--hold-ms must be at least 1 (got \(holdMS)).") }
        // A megabyte count past this would overflow once turned into bytes.
        guard renderCacheMB <= 1 << 40 else { throw ValidationError("--render-cache-mb must be at most \(1 << 40) (got \(renderCacheMB)).") }
        guard (0...1).contains(failRate) else {
            throw ValidationError("--fail-rate must be between 0 and 1 (got \(failRate)).")
        }
        _ = try parsedFaults()
        _ = try parsedFaultOrder()
    }

    /// `--faults` as faults; an unknown name is a validation error naming the valid ones.
    private func parsedFaults() throws -> [MockFault] {
        guard let faults else { return [] }
        return try faults.split(separator: ",", omittingEmptySubsequences: true).map { name in
            let name = name.trimmingCharacters(in: .whitespaces)
            guard let fault = MockFault(rawValue: name) else {
                throw ValidationError(
                    "unknown fault \"\(name)\" in --faults; use \(MockFault.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return fault
        }
    }

    /// `--fault-order` as an order; an unknown name is a validation error naming the valid ones.
    private func parsedFaultOrder() throws -> MockFaultOrder {
        guard let order = MockFaultOrder(rawValue: faultOrder) else {
            throw ValidationError(
                "unknown fault order \"\(faultOrder)\" in --fault-order; use \(MockFaultOrder.allCases.map(\.rawValue).joined(separator: " or ")).")
        }
        return order
    }

    /// ArgumentParser's `main` over main's own `argv` (``ProgramArguments``), which is there
    /// without `/proc` (where `CommandLine` would give no arguments), once `/proc` is known
    /// to be mounted.
    static func main() async {
        // Before anything else: the runtime's threads are libdispatch's, which stops the
        // process a second into its work without /proc.
        if let missing = ProcFilesystem.missing() {
            FileHandle.standardError.write(Data("catfacts-mock: \(missing)\n".utf8))
            Foundation.exit(1)
        }
        guard let arguments = ProgramArguments.read() else {
            FileHandle.standardError.write(Data("catfacts-mock: \(ProgramArguments.unreadable)\n".utf8))
            Foundation.exit(2)
        }
        await main(arguments)
    }

    func run() async throws {
        var configuration = MockConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.breeds = breeds
        configuration.facts = facts
        configuration.latency = .milliseconds(latencyMS)
        configuration.jitter = .milliseconds(jitterMS)
        configuration.failRate = failRate
        configuration.faults = try parsedFaults()
        configuration.faultOrder = try parsedFaultOrder()
        configuration.failFirst = failFirst
        configuration.maxLimit = maxLimit
        configuration.slowBody = .milliseconds(slowMS)
        configuration.retryAfterSeconds = retryAfter
        configuration.seed = seed
        configuration.logRequests = logRequests
        configuration.hold = hold
        configuration.holdAfter = holdAfter
        configuration.holdLimit = .milliseconds(holdMS)
        configuration.renderCacheBytes = renderCacheMB << 20

        // Install the handlers before listening, so an early signal still stops cleanly.
        guard ShutdownSignals.install(), !stopAtEndOfInput || ShutdownSignals.stopAtEndOfInput() else {
            FileHandle.standardError.write(Data("catfacts-mock: cannot set up signal handling\n".utf8))
            throw ExitCode.failure
        }
        let server: MockServer
        do {
            server = try await MockServer.start(configuration)
        } catch {
            FileHandle.standardError.write(Data("catfacts-mock: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        // Written straight to the descriptor, unbuffered: whoever started us waits for this line.
        FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(server.port)\n".utf8))

        await ShutdownSignals.wait()
        await server.stop()
    }
}
