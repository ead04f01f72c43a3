#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which standard streams are terminals, and the environment: what decides between the
/// interactive and the script behaviours, colour, and the spinner.
struct Streams: Sendable {
    var stdinIsTerminal: Bool
    var stdoutIsTerminal: Bool
    var stderrIsTerminal: Bool
    var environment: [String: String]

    /// This process's streams.
    static func current(environment: [String: String]) -> Streams {
        Streams(stdinIsTerminal: Descriptor.isTerminal(STDIN_FILENO),
                stdoutIsTerminal: Descriptor.isTerminal(STDOUT_FILENO),
                stderrIsTerminal: Descriptor.isTerminal(STDERR_FILENO),
                environment: environment)
    }

    /// Keys can be read and the screen redrawn in place: `scroll` pages by screenfuls and
    /// `metrics --watch` works.
    var isInteractiveTerminal: Bool { stdinIsTerminal && stdoutIsTerminal }

    /// The size listings are fitted to.
    var size: TerminalSize { TerminalSize.current(of: STDOUT_FILENO, environment: environment) }
}
