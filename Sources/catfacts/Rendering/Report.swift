/// A command's result before it has a format: what the shell prints, as data and as a view.
/// Commands build one and hand it to ``Output/show(_:)``; the ``Renderer`` of the session's
/// output mode turns it into text, so no command knows the formats.
///
/// Each format takes the part made for it, and falls back to ``lines`` when the result has
/// none: JSON prints ``documents``, CSV ``data``, table ``view``; plain prints ``lines``
/// when there are any (the tab-separated lines scripts read where they are not the data's,
/// and messages), else ``data``.
///
/// ```swift
/// output.show(Report(documents: [JSONDocument(page)], data: .rows(rows),
///                    view: [.title("Breeds — page 1 of 10", source: page.source), .table(rows)]))
/// ```
struct Report: Sendable {
    /// The result as JSON documents, one a line (the library's JSON where it has one).
    var documents: [JSONDocument] = []
    /// The result as data: rows of named columns, or one record.
    var data: ReportData?
    /// Lines printed as they are: what plain prints instead of the data, and what the other
    /// formats print when they have nothing of their own (`metrics --prom`, `set`, `help`).
    var lines: [String] = []
    /// What a person reads: the blocks the table shows, in order.
    var view: [ViewBlock] = []
}

/// A result as data: what CSV and plain print.
enum ReportData: Sendable {
    /// Rows of named columns (a listing).
    case rows(Rows)
    /// One record of named fields (a breed in full).
    case record(Record)
}
