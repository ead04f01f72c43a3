/// The one seam between bytes from the server and typed values.
///
/// Everything the client decodes goes through it, so the parser can be swapped
/// (docs/architecture.md, "JSON") without touching anything else.
/// Failures are ``CatFactsError/decode(_:url:)`` naming what was wrong and where.
public protocol PageDecoder: Sendable {
    /// Decodes a paginated response body.
    func decodePage<Item: Decodable & Sendable>(_ type: Item.Type, from body: [UInt8]) throws(DecodeFailure) -> PageBody<Item>
    /// Decodes a single object (`/fact`).
    func decodeObject<Value: Decodable>(_ type: Value.Type, from body: [UInt8]) throws(DecodeFailure) -> Value
}

/// What a paginated body holds, before the client adds its source and fetch time.
public struct PageBody<Item: Sendable>: Sendable {
    package init(currentPage: Int, lastPage: Int, perPage: Int, total: Int, items: [Item]) {
        self.currentPage = currentPage
        self.lastPage = lastPage
        self.perPage = perPage
        self.total = total
        self.items = items
    }

    public var currentPage: Int
    public var lastPage: Int
    public var perPage: Int
    public var total: Int
    public var items: [Item]
}

/// Why a body could not be decoded, in words a user can act on (which key, which index).
public struct DecodeFailure: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension PageBody {
    /// The body, when its numbers are ones a paginator sends, so callers can trust a page's
    /// arithmetic (`per_page` 0, a `current_page` of 0 or more items than `per_page` are refused).
    func validated() throws(DecodeFailure) -> PageBody {
        try Self.validate(currentPage: currentPage, lastPage: lastPage, perPage: perPage, total: total, itemCount: items.count)
        return self
    }

    /// The checks of ``validated()`` on a page's numbers and its count of items.
    static func validate(currentPage: Int, lastPage: Int, perPage: Int, total: Int, itemCount: Int) throws(DecodeFailure) {
        guard perPage > 0 else { throw DecodeFailure("'per_page' is \(perPage); expected 1 or more") }
        guard total >= 0, currentPage >= 1, lastPage >= 1 else {
            throw DecodeFailure("the page numbers are impossible (current_page \(currentPage), last_page \(lastPage), total \(total))")
        }
        guard itemCount <= perPage else {
            throw DecodeFailure("'data' holds \(itemCount) items, more than 'per_page' (\(perPage))")
        }
    }
}
