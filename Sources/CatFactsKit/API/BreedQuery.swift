/// A question about the breeds: which ones (prefix, field values, fields present), in what
/// order, grouped or not, how many. The API has no search or filter, so it is answered
/// over the whole breed list the client fetches (see ``CatFactsClient/query(_:)``).
///
/// ```swift
/// var query = BreedQuery()
/// query.groupBy = .country
/// query.present = [.coat]
/// let answer = try await client.query(query)   // .groups([BreedGroup(key: "Egypt", ...), ...])
/// ```
public struct BreedQuery: Sendable, Equatable {
    /// Breed names starting with this, case- and diacritic-insensitive.
    public var search: String?
    /// Group by this field: groups in ascending order, breeds without the field left out.
    public var groupBy: Breed.Field?
    /// Sort by this field (default: the name); breeds without it come last; ties by name.
    public var sortBy: Breed.Field?
    /// Sort descending (breeds without the field still come last).
    public var descending = false
    /// Keep breeds whose field equals or contains the value (case- and diacritic-insensitive).
    public var whereValues: [Breed.Field: String] = [:]
    /// Keep breeds that have all these fields.
    public var present: Set<Breed.Field> = []
    /// At most this many breeds (over all groups, in order).
    public var limit: Int?

    public init() {}
}
