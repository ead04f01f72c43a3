import Foundation
import Hummingbird

/// `--log-requests` (``MockConfiguration/logRequests``): one line per request on standard
/// output, as it arrives, so a test can see what a client sent, its trace context above all:
/// `request GET /breeds?page=1&limit=10 traceparent=00-<trace id>-<span id>-01`, or
/// `traceparent=-` when the request carried none. Each line is one write of its own (no
/// buffer to flush), so a reader sees it at once and lines of concurrent requests never mix.
enum RequestLog {
    /// The line for `request` (without its newline).
    static func line(for request: Request) -> String {
        let traceparent = request.headers.first { $0.name.canonicalName == "traceparent" }.map { printable($0.value) } ?? "-"
        return "request \(request.method.rawValue) \(printable(request.uri.description)) traceparent=\(traceparent)"
    }

    /// Writes `request`'s line.
    static func write(_ request: Request) {
        FileHandle.standardOutput.write(Data((line(for: request) + "\n").utf8))
    }

    /// `text` on one line: control characters and spaces as `%XX`, so a value cannot forge a line.
    private static func printable(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar.value <= 0x20 || scalar.value == 0x7F {
                shown += String(format: "%%%02X", scalar.value)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
