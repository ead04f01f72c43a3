/// An optional that a synthesized `Encodable` writes as `null` when it is `nil`, instead of
/// leaving its key out: for the JSON whose every key is always there (the metrics' `"cache"`,
/// the shell's `source`), without a hand-written `encode(to:)` to keep in step with the keys.
@propertyWrapper
public struct WrittenAsNull<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The value; `nil` is written as `null`.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension WrittenAsNull: Equatable where Value: Equatable {}
