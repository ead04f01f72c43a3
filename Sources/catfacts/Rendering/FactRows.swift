import CatFactsKit

/// Numbered facts: wrapped to the width under their number (a fact is a sentence or
/// three, too long to cut), or one tab-separated line each.
enum FactRows {
    /// Each fact under its right-aligned number, wrapped to `width` with a hanging indent.
    static func list(_ rows: [(number: Int, fact: Fact)], width: Int, style: Style) -> [String] {
        let numberWidth = rows.map { String($0.number).count }.max() ?? 1
        let indent = numberWidth + Table.gap
        var lines: [String] = []
        for row in rows {
            let wrapped = TextWrap.lines(ControlEscapes.escaped(row.fact.text), width: max(20, width - indent))
            for (index, line) in wrapped.enumerated() {
                let lead = index == 0
                    ? DisplayWidth.pad(String(row.number), to: numberWidth, right: true) + String(repeating: " ", count: Table.gap)
                    : String(repeating: " ", count: indent)
                lines.append(lead + line)
            }
        }
        return lines
    }

    /// `N<TAB>text` per fact.
    static func plain(_ number: Int, _ fact: Fact) -> String {
        "\(number)\t\(BreedRows.tabSafe(fact.text))"
    }
}
