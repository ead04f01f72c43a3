import CatFactsKit

/// The breeds of the last listing by the number shown next to them, for `show N`.
struct NumberedBreeds: Sendable {
    private var byNumber: [Int: Breed] = [:]
    private var range: ClosedRange<Int>?
    private var listed = false

    /// Replaces the numbering with `rows`.
    mutating func replace(with rows: [(number: Int, breed: Breed)]) {
        listed = true
        byNumber = Dictionary(rows.map { ($0.number, $0.breed) }, uniquingKeysWith: { _, last in last })
        range = rows.isEmpty ? nil : (rows.map(\.number).min() ?? 1)...(rows.map(\.number).max() ?? 1)
    }

    /// Adds `rows` to the numbering (rows arriving in the same listing, as `scroll` prints them).
    mutating func add(_ rows: [(number: Int, breed: Breed)]) {
        listed = true
        for row in rows { byNumber[row.number] = row.breed }
        let numbers = Array(byNumber.keys)
        range = numbers.isEmpty ? nil : (numbers.min() ?? 1)...(numbers.max() ?? 1)
    }

    /// The breed numbered `number`, if the last listing showed it.
    func breed(numbered number: Int) -> Breed? { byNumber[number] }

    /// What the last listing numbered, e.g. "the last listing shows 11–20".
    var shown: String {
        guard listed else { return "nothing is listed yet" }
        guard let range else { return "the last listing was empty" }
        let numbers = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
        return "the last listing shows \(numbers)"
    }
}
