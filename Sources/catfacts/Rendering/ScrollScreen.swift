import CatFactsKit

/// A screenful of `scroll` at a terminal as it stands now: the loaded rows as breeds, the
/// rows still loading or failed as placeholders, up to the end of the list.
struct ScrollScreen {
    /// The lines to draw, a row each.
    private(set) var lines: [String] = []
    /// The breeds shown, with their numbers (from 1), for `show N`.
    private(set) var loaded: [(number: Int, breed: Breed)] = []
    /// The list ends on this screen.
    private(set) var ended = false
    /// The first failure among the rows, if any.
    private(set) var failure: CatFactsError?
    /// Some rows are still loading: the screen is drawn again as their pages arrive.
    private(set) var pending = false

    /// Rows `rows` (0-based) of `list`, laid out by `layout`.
    init(_ list: PagedList<Breed>, rows: Range<Int>, layout: StreamingColumns, style: Style) {
        for index in rows {
            switch list.item(at: index) {
            case .loaded(let breed):
                lines.append(layout.row(index + 1, breed))
                loaded.append((index + 1, breed))
            case .pending:
                lines.append(style.dim(layout.placeholder(index + 1, "…loading…")))
                pending = true
            case .failed(let error):
                lines.append(style.red(layout.placeholder(index + 1, "failed: \(error.status.phrase)")))
                failure = failure ?? error
            case .pastEnd:
                ended = true
                return
            }
        }
    }

    /// The line under a full screen: "-- 1–28 of 98: any key for more, q to stop --".
    static func morePrompt(_ rows: Range<Int>, total: Int?, style: Style) -> String {
        let total = total.map { " of \($0)" } ?? ""
        return style.dim("-- \(rows.lowerBound + 1)–\(rows.upperBound)\(total): any key for more, q to stop --")
    }

    /// The line after the last breed (dim).
    static func endOfList(count: Int) -> String {
        "(end of the list: \(count) breeds)"
    }
}
