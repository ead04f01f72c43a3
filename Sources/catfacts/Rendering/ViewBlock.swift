import CatFactsKit

/// A part of what a person reads (table mode): ``TableRenderer`` lays each out at the
/// output's width and styles it.
enum ViewBlock: Sendable {
    /// A bold title, tagged with where the data came from when not live.
    case title(String, source: Source?)
    /// Rows as a table fitted to the width (nothing when there are no rows).
    case table(Rows)
    /// Rows whose last column is long text (facts): wrapped to the width, under the first
    /// column right-aligned.
    case wrapped(Rows)
    /// Rows laid out before their contents are known (`scroll` prints them as they arrive):
    /// columns as wide as `typicalWidths`, fitted to the width; the headings unless the rows
    /// go on from rows printed before.
    case streamed(Rows, typicalWidths: [Int])
    /// Labelled lines, a field each: the label bold, the value cut to the width (or wrapped).
    case fields([Record.Field])
    /// A dim line (the end of a list, "No requests yet.").
    case note(String)
    /// Where the data came from, on a line of its own, when not live.
    case sourceTag(Source)
    /// Lines as they are.
    case lines([String])
}
