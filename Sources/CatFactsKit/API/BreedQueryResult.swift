/// The answer to a ``BreedQuery``.
public enum BreedQueryResult: Sendable, Equatable {
    /// `{"items":[...]}`.
    case items([Breed])
    /// `{"groups":[{"key":"Egypt","items":[...]}]}`.
    case groups([BreedGroup])

    /// Every breed of the answer, in order.
    public var breeds: [Breed] {
        switch self {
        case .items(let items): items
        case .groups(let groups): groups.flatMap(\.items)
        }
    }
}

/// The breeds sharing one value of the grouping field.
public struct BreedGroup: Sendable, Equatable, Encodable {
    public var key: String
    public var items: [Breed]

    public init(key: String, items: [Breed]) {
        self.key = key
        self.items = items
    }
}
