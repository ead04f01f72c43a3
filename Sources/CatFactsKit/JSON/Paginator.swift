/// The Laravel paginator the service wraps every page in, decoded tolerantly:
/// `per_page` as number or string, `from`/`to` null past the last page, and the
/// link fields (`links`, `*_page_url`, `path`) accepted but not needed.
package struct Paginator<Item: Decodable & Sendable>: Decodable, Sendable {
    package let currentPage: Int
    package let data: [Item]
    package let lastPage: Int
    package let perPage: Int
    package let total: Int
    package let from: Int?
    package let to: Int?

    enum CodingKeys: String, CodingKey {
        case currentPage = "current_page", data, lastPage = "last_page"
        case perPage = "per_page", total, from, to
    }

    package init(from decoder: any Decoder) throws {
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
