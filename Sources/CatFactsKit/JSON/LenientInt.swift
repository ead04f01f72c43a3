/// An integer the service may send as a number (`5`) or as a string (`"5"`):
/// Laravel echoes `per_page` from the query string when `limit` was given.
struct LenientInt: Decodable, Sendable {
    let value: Int

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let number = try? c.decode(Int.self) {
            value = number
        } else if let text = try? c.decode(String.self),
                  let number = Int(text.trimmed()) {
            value = number
        } else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "expected an integer or a numeric string")
        }
    }
}
