/// What a live search's listener hears (``LiveSearch/Answer``): the breeds found for one text,
/// or why there are none, and where they came from.
public struct SearchAnswer: Sendable {
    /// Which ``LiveSearch/set(_:)`` call it answers: the first is 1.
    public let generation: Int
    /// The text searched.
    public let text: String
    /// The breeds whose name starts with the text, at most the limit, in name order, or
    /// why there are none (the catalog could not be loaded).
    public let result: Result<[Breed], CatFactsError>
    /// Where the searched breeds came from.
    public let source: Source
}
