/// How results are printed (`set output`, `--json`).
enum OutputMode: String, CaseIterable, Sendable {
    /// Numbered tables fitted to the terminal.
    case table
    /// The library's JSON, one document per result.
    case json
    /// Tab-separated values, no headings: for `cut`, `awk` and friends.
    case plain
    /// Comma-separated values (RFC 4180: a header row, CRLF line ends), as `--csv` gives.
    case csv
}
