import CatFactsKit

/// What Tab offers where the cursor is: command names first, then what the command's
/// ``ArgumentCompletion`` says: breed fields, fixed words, or breed names the shell has seen
/// (names with spaces complete word by word, as readline replaces one word at a time).
struct TabCompleter: Sendable {
    let registry: CommandRegistry
    let names: BreedNames

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
            let offered = choices[position] == ArgumentCompletion.fieldNames
                ? Breed.Field.allCases.map(\.rawValue) : choices[position]
            return offered.filter { $0.hasPrefix(word.lowercased()) }
        case .breedNames:
            return breedNames(typed: words.dropFirst().map { $0 + " " }.joined() + word, word: word)
        }
    }

    /// Names starting with `typed` (the whole argument so far), each cut to the part from
    /// the current word on, which is all readline replaces.
    private func breedNames(typed: String, word: String) -> [String] {
        let earlier = typed.count - word.count
        return names.starting(with: typed).compactMap { name in
            name.count >= earlier ? String(name.dropFirst(earlier)) : nil
        }
    }
}
