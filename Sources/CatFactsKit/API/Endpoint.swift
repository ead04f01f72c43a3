/// The API's endpoints, named by the path metrics file them under.
public enum Endpoint: String, Sendable, CaseIterable, Codable {
    case breeds = "/breeds"
    case facts = "/facts"
    case fact = "/fact"

    /// The path, e.g. `/breeds`.
    public var path: String { rawValue }
}
