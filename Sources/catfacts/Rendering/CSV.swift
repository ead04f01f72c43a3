import CatFactsKit

/// Comma-separated values as RFC 4180 writes them: records ended by CRLF, a field quoted
/// (its quotes doubled) when it holds a comma, a quote, CR or LF; a header row first.
/// Control characters other than CR, LF and tab are shown escaped (see ``ControlEscapes``),
/// as the output may well be a terminal.
///
/// ```swift
/// CSV.record(["1", "Abyssinian", "Ethiopia, or not"])  // "1,Abyssinian,\"Ethiopia, or not\"\r\n"
/// ```
enum CSV {
    /// The end of every record (RFC 4180 §2.1).
    static let recordEnd = "\r\n"

    /// One record, with its CRLF.
    static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + recordEnd
    }

    /// One field, quoted when it must be.
    static func field(_ text: String) -> String {
        var value = ""
        for scalar in text.unicodeScalars {
            if ControlEscapes.isControl(scalar), scalar != "\r", scalar != "\n", scalar != "\t" {
                value += ControlEscapes.escaped(String(scalar))
            } else {
                value.unicodeScalars.append(scalar)
            }
        }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return value }
        return "\"" + value.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
