import CatFactsKit

/// A catalog of any number of facts, each computed from its position on demand.
///
/// Fact i (0-based) is template `i % K` around its zero-padded 1-based number, so every fact
/// built from one template has the same length. That makes `max_length` arithmetic: the
/// passing facts are those whose template is short enough, their count and the j-th of them
/// come in O(K) without looking at a single fact.
struct SyntheticFacts: FactCatalog {
    let total: Int
    /// Digits of the zero-padded number: those of `total`, so lengths do not vary with the number.
    private let width: Int
    /// The length of a fact built from each template, as ``Fact/init(_:length:)`` counts it.
    let templateLengths: [Int]

    init(count: Int) {
        total = max(0, count)
        width = String(total).count
        let width = width
        templateLengths = Self.templates.map { Fact($0.prefix + String(repeating: "0", count: width) + $0.suffix).length }
    }

    func count(maxLength: Int?) -> Int {
        let k = Self.templates.count
        return passing(maxLength).reduce(0) { sum, template in
            sum + total / k + (template < total % k ? 1 : 0)
        }
    }

    func facts(maxLength: Int?, in range: Range<Int>) -> [Fact] {
        let passing = passing(maxLength)
        guard !passing.isEmpty else { return [] }
        let k = Self.templates.count
        return range.map { j in
            let position = (j / passing.count) * k + passing[j % passing.count]
            return fact(at: position)
        }
    }

    /// The fact at 0-based catalog position `position`.
    func fact(at position: Int) -> Fact {
        let template = Self.templates[position % Self.templates.count]
        let number = String(position + 1)
        let padded = String(repeating: "0", count: max(0, width - number.count)) + number
        return Fact(template.prefix + padded + template.suffix,
                    length: templateLengths[position % Self.templates.count])
    }

    /// Templates whose facts pass `maxLength`, in ascending order.
    private func passing(_ maxLength: Int?) -> [Int] {
        guard let maxLength, maxLength > 0 else { return Array(templateLengths.indices) }
        return templateLengths.indices.filter { templateLengths[$0] <= maxLength }
    }

    /// The text around each number: varied lengths, curly quotes, a dash, a slash and an
    /// emoji above U+FFFF, so clients meet what the real service sends.
    static let templates: [(prefix: String, suffix: String)] = [
        ("Cat fact #", ": a cat’s nose print is unique, much like a human fingerprint."),
        ("Fact #", ": cats sleep 12–16 hours a day."),
        ("Synthetic fact #", " — the oldest known pet cat was found in a 9,500-year-old grave on Cyprus, buried beside its human."),
        ("#", ": “Meow” is mostly for humans; adult cats rarely meow at each other."),
        ("Cat fact #", ": a group of kittens is called a kindle, and a group of adult cats a clowder. 🐈"),
        ("Fact #", ": cats can rotate their ears 180 degrees, using 32 muscles in each ear to pinpoint the source of a sound with remarkable accuracy, even in complete darkness."),
        ("Cat fact #", ": a cat’s whiskers are roughly as wide as its body, which helps it judge whether it can fit through a gap."),
        ("Fact #", ": the Egyptian Mau can run at about 48 km/h (30 mph)."),
    ]
}
