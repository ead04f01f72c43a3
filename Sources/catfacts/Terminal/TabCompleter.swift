import CatFactsKit

/// What Tab offers where the cursor is: command names first, then what the command's
/// ``ArgumentCompletion`` says: breed fields, fixed words, or breed names and field values
/// the shell has seen (those with spaces complete word by word, as readline replaces one
/// word at a time).
struct TabCompleter: Sendable {
    let registry: CommandRegistry
    let seen: SeenValues

    /// The candidates for `word`, the word under the cursor, given the text of the line
    /// before it.
    func candidates(before: String, word: String) -> [String] {
        // Only the command being typed counts: the text after the last `;`.
        let current = before.split(separator: ";", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let words = current.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let name = words.first else {
            return registry.allNames.filter { $0.hasPrefix(word.lowercased()) }
        }
        guard let command = registry.command(named: name) else { return [] }
        let position = words.count - 1
        switch command.completion {
        case .none:
            return []
        case .commands:
            return position == 0 ? registry.allNames.filter { $0.hasPrefix(word.lowercased()) } : []
        case .positions(let choices):
            guard position < choices.count else { return [] }
            let offered = choices[position] == ArgumentCompletion.fieldNames ? fieldNames : choices[position]
            return offered.filter { $0.hasPrefix(word.lowercased()) }
        case .breedNames:
            return values(of: .breed, typed: words.dropFirst(), word: word)
        case .fieldThenValue:
            if position == 0 { return fieldNames.filter { $0.hasPrefix(word.lowercased()) } }
            guard let field = Breed.Field(typed: words[1]) else { return [] }
            return values(of: field, typed: words.dropFirst(2), word: word)
        }
    }

    private var fieldNames: [String] { Breed.Field.allCases.map(\.rawValue) }

    /// Values of `field` starting with the whole argument so far (the `typed` words before
    /// the cursor's, then `word`), each cut to the part from the current word on, which is
    /// all readline replaces.
    private func values(of field: Breed.Field, typed: ArraySlice<String>, word: String) -> [String] {
        let earlier = typed.map { $0 + " " }.joined()
        return seen.starting(with: earlier + word, in: field).compactMap { value in
            value.count >= earlier.count ? String(value.dropFirst(earlier.count)) : nil
        }
    }
}
