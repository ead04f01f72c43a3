import CatFactsKit

/// Breed rows laid out before their contents are known (`scroll` prints rows as they
/// arrive): column widths from typical field lengths, fitted to the width like a ``Table``.
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
    private static let typical = [24, 20, 16, 15, 13]

    /// Columns for numbers up to `largestNumber`, fitted to `width`; values longer than
    /// their column are cut unless `cutting` is off.
    init(width: Int, largestNumber: Int, cutting: Bool = true) {
        self.cutting = cutting
        let sample = [String(repeating: "0", count: String(max(1, largestNumber)).count)]
            + Self.typical.map { String(repeating: "x", count: $0) }
        table = Table(columns: BreedRows.columns(BreedRows.fields), lines: [.cells(sample)])
        widths = table.widths(fitting: width)
        self.width = width
    }

    /// The column headings.
    func header(style: Style) -> String {
        style.bold(fit(table.layout(table.columns.map(\.header), widths: widths)))
    }

    /// A loaded row.
    func row(_ number: Int, _ breed: Breed) -> String {
        fit(table.layout(BreedRows.cells(number, breed), widths: widths, cutting: cutting))
    }

    /// A row whose page is loading, or failed: its number and `text`.
    func placeholder(_ number: Int, _ text: String) -> String {
        fit(table.layout([String(number), text], widths: [widths[0], width]))
    }

    private func fit(_ line: String) -> String { cutting ? DisplayWidth.truncate(line, to: width) : line }
}
