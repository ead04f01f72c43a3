/// A cat breed as the Cat Facts API lists it.
///
/// The service sends every field, but often as an empty string; a breed never
/// holds `""`: an empty or all-blank field is `nil` (absent).
///
/// Its properties are named as the fields are in every front (``Field``, the C struct
/// `cf_breed`, the JSON, queries, the shell's columns).
public struct Breed: Sendable, Hashable {
    /// The breed's name, e.g. "Abyssinian". Never empty.
    public var breed: String
    /// Country the breed is associated with, e.g. "Ethiopia".
    public var country: String?
    /// How the breed came about, e.g. "Natural/Standard", "Crossbreed", "Mutation".
    public var origin: String?
    /// Coat length or kind, e.g. "Short", "Semi-long", "Hairless".
    public var coat: String?
    /// Coat pattern, e.g. "Ticked", "Colorpoint".
    public var pattern: String?

    /// Creates a breed; empty optional fields become `nil`.
    public init(breed: String, country: String? = nil, origin: String? = nil,
                coat: String? = nil, pattern: String? = nil) {
        self.breed = breed
        self.country = Breed.presence(country)
        self.origin = Breed.presence(origin)
        self.coat = Breed.presence(coat)
        self.pattern = Breed.presence(pattern)
    }

    /// Creates a breed from fields already trimmed (by ``ScanningPageDecoder``).
    init(trimmedName name: String, country: String?, origin: String?, coat: String?, pattern: String?) {
        self.breed = name
        self.country = country
        self.origin = origin
        self.coat = coat
        self.pattern = pattern
    }

    /// The field names, as the API and the JSON the library hands out spell them.
    public enum Field: String, CaseIterable, Sendable, CodingKey {
        case breed, country, origin, coat, pattern
    }

    /// The value of `field`, `nil` when absent.
    public subscript(field: Field) -> String? {
        switch field {
        case .breed: breed
        case .country: country
        case .origin: origin
        case .coat: coat
        case .pattern: pattern
        }
    }

    /// The breed with only `fields` (its name always): the others absent.
    func keeping(_ fields: Set<Field>) -> Breed {
        Breed(trimmedName: breed, country: fields.contains(.country) ? country : nil,
              origin: fields.contains(.origin) ? origin : nil, coat: fields.contains(.coat) ? coat : nil,
              pattern: fields.contains(.pattern) ? pattern : nil)
    }

    /// Whether UTF-8 text with these first and last bytes plainly has no white space at its
    /// ends: it ends with a printable ASCII byte and starts with one, or with the lead byte
    /// of a character that is not white space (C2 and E1-E3 lead the Unicode spaces). Most
    /// values pass, and skip the Unicode property lookups of trimming.
    @inline(__always)
    static func hasPlainEnds(first: UInt8, last: UInt8) -> Bool {
        last > 0x20 && last < 0x7F
            && ((first > 0x20 && first < 0x7F) || (0xC3...0xE0).contains(first) || (0xE4...0xF4).contains(first))
    }

    /// `nil` for a missing, empty or all-blank string, else the string trimmed.
    ///
    /// Runs for every field of every breed decoded, so the usual case, nothing to trim,
    /// returns the string itself without Foundation (whose trimming is slow on Linux).
    static func presence(_ value: String?) -> String? {
        guard let value else { return nil }
        if let first = value.utf8.first, let last = value.utf8.last, hasPlainEnds(first: first, last: last) { return value }
        let scalars = value.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return nil }
        if !first.properties.isWhitespace, !last.properties.isWhitespace { return value }
        let trimmed = scalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }
        guard !trimmed.isEmpty else { return nil }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: trimmed.reversed())
        return String(result)
    }
}
