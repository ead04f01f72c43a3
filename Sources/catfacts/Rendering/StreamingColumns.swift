import CatFactsKit

/// Rows laid out before their contents are known (`scroll` prints rows as they arrive):
/// column widths from typical value lengths, fitted to the width like a ``Table``.
struct StreamingColumns {
    private let table: Table
    private let widths: [Int]
    private let width: Int
    /// Whether long values are cut (on a terminal); off it, a long value pushes its row
    /// right instead, so nothing is lost.
    private let cutting: Bool

    /// Typical widths of the breed fields, in the API's order: enough for nearly every
    /// value of the real catalog ("United Arab Emirates", "Partly hairless"); longer values
    /// are cut with "…", and a narrower terminal narrows the widest first.
    static let typicalBreedWidths = [24, 20, 16, 15, 13]

    /// The typical widths of numbered breed rows: the number's (up to `largestNumber`), then
    /// ``typicalBreedWidths``.
    static func breedWidths(largestNumber: Int) -> [Int] {
        [String(max(1, largestNumber)).count] + typicalBreedWidths
    }

    /// `columns` as wide as `typicalWidths`, fitted to `width`; values longer than their
    /// column are cut unless `cutting` is off.
    init(columns: [Table.Column], typicalWidths: [Int], width: Int, cutting: Bool = true) {
        self.cutting = cutting
        table = Table(columns: columns, lines: [.cells(typicalWidths.map { String(repeating: "x", count: $0) })])
        widths = table.widths(fitting: width)
        self.width = width
    }

    /// Numbered breed rows for numbers up to `largestNumber`, fitted to `width`.
    init(width: Int, largestNumber: Int, cutting: Bool = true) {
        self.init(columns: BreedRows.columns(BreedRows.fields), typicalWidths: Self.breedWidths(largestNumber: largestNumber),
                  width: width, cutting: cutting)
    }

    /// The column headings.
    func header(style: Style) -> String {
        style.bold(fit(table.layout(table.columns.map(\.header), widths: widths)))
    }

    /// A loaded row of cells.
    func row(_ cells: [String]) -> String {
        fit(table.layout(cells, widths: widths, cutting: cutting))
    }

    /// A loaded breed.
    func row(_ number: Int, _ breed: Breed) -> String {
        row(BreedRows.cells(number, breed))
    }

    /// A row whose page is loading, or failed: its number and `text`.
    func placeholder(_ number: Int, _ text: String) -> String {
        fit(table.layout([String(number), text], widths: [widths[0], width]))
    }

    private func fit(_ line: String) -> String { cutting ? DisplayWidth.truncate(line, to: width) : line }
}
