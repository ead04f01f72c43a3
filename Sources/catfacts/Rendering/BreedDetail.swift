import CatFactsKit

/// One breed in full: every field on its own line, an absent one said as "(not given)".
enum BreedDetail {
    /// What an absent field says.
    static let notGiven = "(not given)"

    /// `Field  value` lines, values cut to fit `width`.
    static func lines(_ breed: Breed, width: Int, style: Style, label: String) -> [String] {
        let labelWidth = Breed.Field.allCases.map { BreedRows.header($0).count }.max() ?? 0
        return Breed.Field.allCases.map { field in
            let name = style.bold(DisplayWidth.pad(BreedRows.header(field), to: labelWidth))
            let room = max(Table.minimumWidth, width - labelWidth - Table.gap)
            let value = breed[field].map { DisplayWidth.truncate(ControlEscapes.escaped($0), to: room) } ?? style.dim(notGiven)
            return name + String(repeating: " ", count: Table.gap) + value + (field == .breed ? label : "")
        }
    }

    /// `field<TAB>value` lines, the value empty when absent.
    static func plain(_ breed: Breed) -> [String] {
        Breed.Field.allCases.map { "\($0.rawValue)\t\(BreedRows.tabSafe(breed[$0] ?? ""))" }
    }
}
