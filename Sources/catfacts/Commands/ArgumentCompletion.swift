/// What Tab offers for a command's arguments.
enum ArgumentCompletion: Sendable {
    /// Nothing.
    case none
    /// Command names (`help`).
    case commands
    /// A breed name the shell has seen, spaces and all (`show`, `search`).
    case breedNames
    /// A breed field, then a value of that field the shell has seen, spaces and all (`filter`).
    case fieldThenValue
    /// Fixed words per argument position; an empty list offers nothing there. A position
    /// holding ``fieldNames`` offers the breed fields.
    case positions([[String]])

    /// Stands for the breed fields in ``positions(_:)``.
    static let fieldNames = ["<field>"]
}
