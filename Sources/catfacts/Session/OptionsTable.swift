import CatFactsKit

/// `catfacts --options-table`: the library's table of client options (``ClientOption``), one
/// JSON object a line, so the tests can hold every front and the README to it.
struct OptionsTableRow: Encodable {
    let c: String
    let python: String?
    let shell: String?
    let unit: String
    let min: Int64?
    let max: Int64?
    let longest: Int?
    /// The library's default in the C unit, when it is a number (`nil`: unset or not a number).
    let defaultValue: Int64?
    let meaning: String

    enum CodingKeys: String, CodingKey {
        case c, python, shell, unit, min, max, longest, meaning
        case defaultValue = "default"
    }

    init(_ option: ClientOption) {
        c = option.rawValue
        python = option.pythonKeyword
        shell = option.shellFlag
        unit = option.unit.rawValue
        min = option.range?.lowerBound
        max = option.range?.upperBound
        longest = option.longest
        defaultValue = option.number(in: ClientOptions())
        meaning = option.meaning
    }

    /// Every row, in the table's order.
    static var all: [String] { ClientOption.allCases.map { JSONOutput.string(OptionsTableRow($0)) } }
}
