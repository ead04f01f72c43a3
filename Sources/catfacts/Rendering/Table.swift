/// Columns of text fitted to a width: each column as wide as its widest cell, and when the
/// whole is too wide, the widest columns give up room first, their cells cut with "…".
/// A row is always one line: nothing wraps, so nothing breaks a row apart.
///
/// ```swift
/// let table = Table(columns: [.init("#", rightAligned: true, shrinks: false), .init("Breed")],
///                   lines: [.cells(["1", "Abyssinian"])])
/// table.render(width: 80, style: style).forEach { print($0) }
/// ```
struct Table {
    /// A column: its header, alignment, and whether it may be narrowed to fit.
    struct Column {
        var header: String
        var rightAligned = false
        /// Whether the column may be narrowed (numbers never are: a cut number misleads).
        var shrinks = true
        /// The column keeps this many columns while others can still give room (a breed's
        /// name matters more than its coat).
        var keeps = 0

        init(_ header: String, rightAligned: Bool = false, shrinks: Bool = true, keeps: Int = 0) {
            self.header = header
            self.rightAligned = rightAligned
            self.shrinks = shrinks
            self.keeps = keeps
        }
    }

    /// A line of the table: a row of cells, or a heading across the table (a group's key).
    enum Line {
        case cells([String])
        case heading(String)
    }

    var columns: [Column]
    var lines: [Line]
    /// Spaces between two columns.
    static let gap = 2
    /// No column is narrowed below this many columns (room for a letter or two and "…").
    static let minimumWidth = 4

    /// The widths that fit `width`, as close to the natural ones as possible: the widest
    /// column gives up a column at a time, those that keep room last.
    func widths(fitting width: Int) -> [Int] {
        var widths = columns.map { DisplayWidth.of($0.header) }
        for case .cells(let cells) in lines {
            for (index, cell) in cells.prefix(columns.count).enumerated() {
                widths[index] = max(widths[index], DisplayWidth.of(cell))
            }
        }
        var total = widths.reduce(0, +) + Self.gap * max(0, columns.count - 1)
        for honouringKeeps in [true, false] {
            while total > width {
                let candidates = widths.indices.filter { index in
                    let floor = honouringKeeps ? max(Self.minimumWidth, columns[index].keeps) : Self.minimumWidth
                    return columns[index].shrinks && widths[index] > floor
                }
                guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
                total -= 1
            }
        }
        return widths
    }

    /// The header and every line, each at most `width` columns.
    func render(width: Int, style: Style) -> [String] {
        let widths = widths(fitting: width)
        let header = layout(columns.map(\.header), widths: widths)
        var output = [style.bold(DisplayWidth.truncate(header, to: width))]
        for line in lines {
            switch line {
            case .cells(let cells):
                output.append(DisplayWidth.truncate(layout(cells, widths: widths), to: width))
            case .heading(let text):
                output.append(style.heading(DisplayWidth.truncate(text, to: width)))
            }
        }
        return output
    }

    /// One line: each cell cut and padded to its column, the last one not padded.
    func layout(_ cells: [String], widths: [Int]) -> String {
        var parts: [String] = []
        for (index, width) in widths.enumerated() {
            let cell = DisplayWidth.truncate(index < cells.count ? cells[index] : "", to: width)
            let isLast = index == widths.count - 1
            if columns[index].rightAligned {
                parts.append(DisplayWidth.pad(cell, to: width, right: true))
            } else {
                parts.append(isLast ? cell : DisplayWidth.pad(cell, to: width))
            }
        }
        var line = parts.joined(separator: String(repeating: " ", count: Self.gap))
        while line.last == " " { line.removeLast() }
        return line
    }
}
