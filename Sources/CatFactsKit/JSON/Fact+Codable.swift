/// A fact as the API's JSON spells it: `{"fact": "...", "length": 42}`, the length as a number
/// or a numeric string (``LenientInt``), counted from the text when missing.
extension Fact: Codable {
    enum CodingKeys: String, CodingKey {
        case text = "fact"
        case length
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .text)
        let length = try c.decodeIfPresent(LenientInt.self, forKey: .length)?.value
        self.init(text, length: length)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encode(length, forKey: .length)
    }
}
