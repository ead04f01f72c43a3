/// A breed as the API's JSON spells it (keys ``Breed/Field``): decoding trims each field and
/// leaves an empty one absent, as ``Breed/init(breed:country:origin:coat:pattern:)`` does;
/// encoding leaves absent fields out.
extension Breed: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        let name = try c.decode(String.self, forKey: .breed)
        guard let present = Breed.presence(name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .breed, in: c, debugDescription: "breed name is empty")
        }
        self.init(
            breed: present,
            country: try c.decodeIfPresent(String.self, forKey: .country),
            origin: try c.decodeIfPresent(String.self, forKey: .origin),
            coat: try c.decodeIfPresent(String.self, forKey: .coat),
            pattern: try c.decodeIfPresent(String.self, forKey: .pattern))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Field.self)
        try c.encode(breed, forKey: .breed)
        try c.encodeIfPresent(country, forKey: .country)
        try c.encodeIfPresent(origin, forKey: .origin)
        try c.encodeIfPresent(coat, forKey: .coat)
        try c.encodeIfPresent(pattern, forKey: .pattern)
    }
}
