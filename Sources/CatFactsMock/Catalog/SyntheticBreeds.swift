import CatFactsKit

/// A catalog of any number of breeds, each computed from its 1-based number on demand, so
/// serving a million breeds costs no more memory than serving ten.
///
/// Names are `"<Adjective> <Place> <Kind> <number>"` (unique thanks to the number, first letters
/// spread over the alphabet, a few non-ASCII); the other fields come from small lists picked by a
/// hash of the number, each absent about one time in six, as on the real service.
struct SyntheticBreeds: BreedCatalog {
    let count: Int

    init(count: Int) {
        self.count = max(0, count)
    }

    func breeds(in range: Range<Int>) -> [Breed] {
        range.map { Self.breed(number: $0 + 1) }
    }

    /// The breed numbered `number` (1-based), the same on every run.
    static func breed(number: Int) -> Breed {
        let hash = SplitMix64.mix(UInt64(truncatingIfNeeded: number))
        let fields = SplitMix64.mix(hash)
        return Breed(
            breed: name(number: number, hash: hash),
            country: pick(countries, fields, shift: 0),
            origin: pick(origins, fields, shift: 16),
            coat: pick(coats, fields, shift: 32),
            pattern: pick(patterns, fields, shift: 48))
    }

    /// The name of breed `number`: the word choice varies, the number keeps it unique.
    static func name(number: Int, hash: UInt64? = nil) -> String {
        let hash = hash ?? SplitMix64.mix(UInt64(truncatingIfNeeded: number))
        let adjective = adjectives[Int(hash % UInt64(adjectives.count))]
        let place = places[Int((hash >> 20) % UInt64(places.count))]
        let kind = kinds[Int((hash >> 40) % UInt64(kinds.count))]
        return "\(adjective) \(place) \(kind) \(number)"
    }

    /// One of `list`, chosen by 16 bits of `hash`, or `nil` about one time in six.
    private static func pick(_ list: [String], _ hash: UInt64, shift: UInt64) -> String? {
        let bits = Int((hash >> shift) & 0xFFFF)
        guard bits % 6 != 0 else { return nil }
        return list[(bits / 6) % list.count]
    }

    private static let adjectives = [
        "Amber", "Bramble", "Cinder", "Dapple", "Ember", "Fern", "Ginger", "Honey", "Indigo",
        "Juniper", "Kestrel", "Lilac", "Misty", "Nutmeg", "Onyx", "Pepper", "Quartz", "Russet",
        "Saffron", "Tawny", "Umber", "Velvet", "Willow", "Xanadu", "Yarrow", "Zephyr",
        "Ébène", "Crème", "Øresund",
    ]
    private static let places = [
        "Highland", "Lowland", "Coast", "Valley", "Mountain", "Forest", "Island", "Desert",
        "River", "Meadow", "Tundra", "Harbour",
    ]
    private static let kinds = ["Shorthair", "Longhair", "Rex", "Curl", "Bobtail", "Fold", "Mau", "Van"]
    private static let countries = [
        "Ethiopia", "Thailand", "United States", "Russia", "Japan", "Egypt", "Turkey", "France",
        "United Kingdom", "Burma", "Norway", "Canada", "Côte d’Ivoire", "Brazil", "Iran (Persia)",
    ]
    private static let origins = ["Natural/Standard", "Mutation", "Crossbreed", "Hybrid", "Natural"]
    private static let coats = ["Short", "Semi-long", "Long", "Hairless", "Rex", "Short/Long"]
    private static let patterns = [
        "Ticked", "Colorpoint", "Tabby", "Solid", "Bicolor", "Spotted", "Mink", "All",
        "Tortoiseshell", "Van",
    ]
}
