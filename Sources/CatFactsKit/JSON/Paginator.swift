/// The Laravel paginator the service wraps every page in, decoded tolerantly:
/// `per_page` as number or string, `from`/`to` null past the last page, and the
/// link fields (`links`, `*_page_url`, `path`) accepted but not needed.
struct Paginator<Item: Decodable & Sendable>: Decodable, Sendable {
    let currentPage: Int
    let data: [Item]
    let lastPage: Int
    let perPage: Int
    let total: Int
    let from: Int?
    let to: Int?

    enum CodingKeys: String, CodingKey {
        case currentPage = "current_page", data, lastPage = "last_page"
        case perPage = "per_page", total, from, to
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        currentPage = try c.decode(LenientInt.self, forKey: .currentPage).value
        data = try c.decode([Item].self, forKey: .data)
        lastPage = try c.decode(LenientInt.self, forKey: .lastPage).value
        perPage = try c.decode(LenientInt.self, forKey: .perPage).value
        total = try c.decode(LenientInt.self, forKey: .total).value
        from = try c.decodeIfPresent(LenientInt.self, forKey: .from)?.value
        to = try c.decodeIfPresent(LenientInt.self, forKey: .to)?.value
    }
}
