extension Page: Encodable where Item: Encodable {
    enum CodingKeys: String, CodingKey {
        case page, lastPage = "last_page", perPage = "per_page", total, items, source, fetchedAt = "fetched_at"
    }

    /// Encodes the page in the shape `cf_breeds_page` documents in include/catfacts.h (`page`, `last_page`, ..., `fetched_at` in RFC 3339).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(number, forKey: .page)
        try c.encode(lastPage, forKey: .lastPage)
        try c.encode(perPage, forKey: .perPage)
        try c.encode(total, forKey: .total)
        try c.encode(items, forKey: .items)
        try c.encode(source, forKey: .source)
        try c.encode(fetchedAt.iso8601, forKey: .fetchedAt)
    }
}
