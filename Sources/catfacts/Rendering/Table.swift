/// Columns of text fitted to a width: each column as wide as its widest cell, and when the
/// whole is too wide, the widest columns give up room first, their cells cut with "…".
/// The key column (a breed's name) is not cut while another column can give room, up to
/// half the width: when the others at their narrowest still leave it too little, the last
/// of them are left out; only a key wider than that is cut.
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
        /// The column that names the row (a breed's name): cut only when nothing else is
        /// left to give room.
        var isKey = false

        init(_ header: String, rightAligned: Bool = false, shrinks: Bool = true, isKey: Bool = false) {
            self.header = header
            self.rightAligned = rightAligned
            self.shrinks = shrinks
            self.isKey = isKey
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
        var widths = naturalWidths()
        var total = widths.reduce(0, +) + Self.gap * max(0, columns.count - 1)
        let keyFloors = widths.map { keyFloor($0, width: width) }
        for sparingKey in [true, false] {
            while total > width {
                let candidates = widths.indices.filter { index in
                    let floor = sparingKey && columns[index].isKey ? keyFloors[index] : Self.minimumWidth
                    return columns[index].shrinks && widths[index] > floor
                }
                guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
                total -= 1
            }
        }
        return widths
    }

    /// The narrowest the key column gets while others can give room: its natural width, up to
    /// half of `width`.
    private func keyFloor(_ natural: Int, width: Int) -> Int {
        min(natural, max(Self.minimumWidth, width / 2))
    }

    /// Each column as wide as its header and its widest cell.
    private func naturalWidths() -> [Int] {
        var widths = columns.map { DisplayWidth.of($0.header) }
        for case .cells(let cells) in lines {
            for (index, cell) in cells.prefix(columns.count).enumerated() {
                widths[index] = max(widths[index], DisplayWidth.of(cell))
            }
        }
        return widths
    }

    /// The columns shown at `width`: all of them, unless the key column would have to be
    /// cut below its floor (see ``keyFloor(_:width:)``); then the last columns that may be
    /// narrowed are left out, one by one, until it fits (or nothing else is left to leave out).
    func shownColumns(fitting width: Int) -> [Int] {
        let natural = naturalWidths()
        var shown = Array(columns.indices)
        func narrowest(_ shown: [Int]) -> Int {
            shown.map { index in
                guard columns[index].shrinks else { return natural[index] }
                return columns[index].isKey ? keyFloor(natural[index], width: width) : min(natural[index], Self.minimumWidth)
            }.reduce(0, +) + Self.gap * max(0, shown.count - 1)
        }
        guard columns.contains(where: \.isKey) else { return shown }
        while narrowest(shown) > width,
              let last = shown.last(where: { columns[$0].shrinks && !columns[$0].isKey }) {
            shown.removeAll { $0 == last }
        }
        return shown
    }

    /// The header and every line, each at most `width` columns.
    func render(width: Int, style: Style) -> [String] {
        let shown = shownColumns(fitting: width)
        guard shown.count == columns.count else {
            let kept = lines.map { line -> Line in
                guard case .cells(let cells) = line else { return line }
                return .cells(shown.map { $0 < cells.count ? cells[$0] : "" })
            }
            return Table(columns: shown.map { columns[$0] }, lines: kept).render(width: width, style: style)
        }
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

    /// One line: each cell cut (unless `cutting` is off: then a longer cell pushes the rest
    /// of its row right) and padded to its column, the last one not padded.
    func layout(_ cells: [String], widths: [Int], cutting: Bool = true) -> String {
        var parts: [String] = []
        for (index, width) in widths.enumerated() {
            let text = index < cells.count ? cells[index] : ""
            let cell = cutting ? DisplayWidth.truncate(text, to: width) : text
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
