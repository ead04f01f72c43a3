import CatFactsKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the shell prints: results on stdout (or the file of `-o` / `.output`), errors and
/// notices on stderr, each styled only when it is a terminal. In JSON Lines mode (`--json`)
/// errors and notices are JSON objects too, one a line, so that every line a script reads
/// parses; control characters in them are escaped on every path (see ``ControlEscapes``).
struct Console: Sendable {
    /// Styling for results.
    private(set) var style: Style
    /// Styling for stderr.
    let errorStyle: Style
    /// Errors and notices as JSON objects (`{"error": ...}`, `{"warning": ...}`).
    var jsonLines = false
    /// Where results go: stdout, or a file opened by `-o` or `.output`.
    private var results: Int32 = STDOUT_FILENO

    /// A console styling results with `style` and stderr with `errorStyle`.
    init(style: Style, errorStyle: Style, jsonLines: Bool = false) {
        self.style = style
        self.errorStyle = errorStyle
        self.jsonLines = jsonLines
    }

    /// Sends results to `descriptor` (`nil`: stdout), styled with `style`.
    mutating func sendResults(to descriptor: Int32?, style: Style) {
        results = descriptor ?? STDOUT_FILENO
        self.style = style
    }

    /// Prints lines of results (in JSON Lines, with C1 controls escaped: see
    /// ``ControlEscapes/jsonSafe(_:)``).
    func print(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        let text = lines.joined(separator: "\n") + "\n"
        Descriptor.writeAll(jsonLines ? ControlEscapes.jsonSafe(text) : text, to: results)
    }

    /// Prints one line of results.
    func print(_ line: String) { print([line]) }

    /// Prints CSV records (each ended by CRLF, see ``CSV``).
    func printRecords(_ records: [[String]]) {
        guard !records.isEmpty else { return }
        Descriptor.writeAll(records.map(CSV.record).joined(), to: results)
    }

    /// Writes `text` to the results as it is (cursor movements of in-place redraws).
    func write(_ text: String) { Descriptor.writeAll(text, to: results) }

    /// Prints a `catfacts: ...` line on stderr, the prefix in red on a terminal.
    func error(_ line: String) {
        emit(line, key: "error") { errorStyle.red($0) }
    }

    /// Prints why the command typed as `what` failed: one line on stderr, or in JSON Lines
    /// `{"command": what, "error": why, "advice": advice}`.
    func failure(_ error: ShellError, what: String) {
        guard jsonLines else { return self.error(error.line(what: what)) }
        writeError(JSONOutput.string(FailureLine(command: what, error: error.why, advice: error.advice)))
    }

    /// Prints a notice on stderr (not an error: where the data comes from).
    func notice(_ line: String) {
        emit(line, key: "warning") { errorStyle.yellow($0) }
    }

    private func emit(_ line: String, key: String, colour: (String) -> String) {
        let prefix = "catfacts:"
        if jsonLines {
            var text = Substring(line)
            if text.hasPrefix(prefix) { text = text.dropFirst(prefix.count).drop { $0 == " " } }
            writeError(JSONOutput.string([key: String(text)]))
            return
        }
        let safe = ControlEscapes.escaped(line)
        writeError(safe.hasPrefix(prefix) ? colour(prefix) + safe.dropFirst(prefix.count) : safe)
    }

    private func writeError(_ line: String) {
        Descriptor.writeAll((jsonLines ? ControlEscapes.jsonSafe(line) : line) + "\n", to: STDERR_FILENO)
    }
}

/// A failed command as a JSON Lines error.
private struct FailureLine: Encodable {
    var command: String
    var error: String
    var advice: String?
}
