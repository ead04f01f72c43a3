/// A value bound to a statement's `?` parameter.
enum SQLiteValue: Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// `value` as text, or NULL for `nil`.
    init(_ value: String?) {
        self = value.map(SQLiteValue.text) ?? .null
    }
}
