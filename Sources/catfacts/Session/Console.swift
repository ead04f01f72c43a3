#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the shell prints: results on stdout, errors and notices on stderr, each styled
/// only when it is a terminal; control characters in errors and notices escaped (see
/// ``ControlEscapes``).
struct Console: Sendable {
    /// Styling for stdout.
    let style: Style
    /// Styling for stderr.
    let errorStyle: Style

    /// Prints lines on stdout.
    func print(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        Descriptor.writeAll(lines.joined(separator: "\n") + "\n", to: STDOUT_FILENO)
    }

    /// Prints one line on stdout.
    func print(_ line: String) { print([line]) }

    /// Writes `text` to stdout as it is (cursor movements of in-place redraws).
    func write(_ text: String) { Descriptor.writeAll(text, to: STDOUT_FILENO) }

    /// Prints a `catfacts: ...` line on stderr, the prefix in red on a terminal.
    func error(_ line: String) {
        let prefix = "catfacts:"
        let line = ControlEscapes.escaped(line)
        let styled = line.hasPrefix(prefix) ? errorStyle.red(prefix) + line.dropFirst(prefix.count) : line
        Descriptor.writeAll(styled + "\n", to: STDERR_FILENO)
    }

    /// Prints a notice on stderr (not an error: where the data comes from).
    func notice(_ line: String) {
        let prefix = "catfacts:"
        let line = ControlEscapes.escaped(line)
        let styled = line.hasPrefix(prefix) ? errorStyle.yellow(prefix) + line.dropFirst(prefix.count) : line
        Descriptor.writeAll(styled + "\n", to: STDERR_FILENO)
    }
}
