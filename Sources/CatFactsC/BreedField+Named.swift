import CatFactsKit

extension Breed.Field {
    /// The field called `name` in option `key` of `what` (for the message), or an argument
    /// error listing the fields there are.
    @_optimize(size)  // once per field name
    package static func named(_ name: String, key: String, in what: String) throws(CatFactsError) -> Breed.Field {
        guard let field = Breed.Field(rawValue: name) else {
            let quoted = name.utf8.count > 64 ? "\(name.prefix(64))…" : name
            throw .argument("'\(key)' in \(what) names no field: '\(quoted)'; fields: \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return field
    }
}
