import CatFactsKit
/// A JSON options object from C (`options_json`), read strictly: an unknown key or a value
/// of the wrong type (`null` included: leave a key out for its default) is an argument
/// error naming the key, so a typo never passes silently. Each options object has its own
/// parser, in its own file: ClientOptions+JSON, PagingOptions+JSON, BreedQuery+JSON,
/// SearchOptions.
struct OptionsJSON {
    private typealias Value = JSONValue

    private let values: [String: Value]
    private let what: String

    /// Parses `text` (NULL: no options); `what` names the options in messages ("client options").
    @_optimize(size)  // once per options text
    init(_ text: UnsafePointer<CChar>?, what: String, allowed: Set<String>) throws(CatFactsError) {
        self.what = what
        guard let text else {
            values = [:]
            return
        }
        let string = try CText.string(text, what: what)
        try JSONNesting.check(string, what: what)
        guard case .object(let object)? = try? JSONValue.parse(Array(string.utf8)) else {
            throw .argument("\(what) must be a JSON object with any of the keys \(allowed.sorted().joined(separator: ", ")); got: \(string.prefix(80))")
        }
        values = object
        if let unknown = values.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .argument("unknown key '\(unknown)' in \(what); known keys: \(allowed.sorted().joined(separator: ", "))")
        }
    }

    /// A whole number within `range` (each option's range is in the header, next to it),
    /// or `nil` when absent. Messages write the range as the header does (`0..100`). Every value the library computes with from it stays far from
    /// overflowing: the ranges are what keep a caller's number from trapping the process.
    func integer(_ key: String, in range: ClosedRange<Int64>) throws(CatFactsError) -> Int? {
        switch values[key] {
        case nil: return nil
        case .integer(let value)?:
            guard range.contains(value), let int = Int(exactly: value) else {
                throw .argument("'\(key)' in \(what) must be in \(range.lowerBound)..\(range.upperBound); got \(value)")
            }
            return int
        default: throw .argument("'\(key)' in \(what) must be an integer in \(range.lowerBound)..\(range.upperBound)")
        }
    }

    func bool(_ key: String) throws(CatFactsError) -> Bool? {
        switch values[key] {
        case nil: return nil
        case .bool(let value)?: return value
        default: throw .argument("'\(key)' in \(what) must be true or false")
        }
    }

    /// An object whose values are all strings, or `nil` when absent.
    func stringMap(_ key: String) throws(CatFactsError) -> [String: String]? {
        switch values[key] {
        case nil: return nil
        case .object(let object)?:
            var map: [String: String] = [:]
            for (name, value) in object {
                guard case .string(let text) = value else { throw .argument("'\(key).\(name)' in \(what) must be a string") }
                map[name] = text
            }
            return map
        default: throw .argument("'\(key)' in \(what) must be an object of strings, e.g. {\"country\":\"Egypt\"}")
        }
    }

    /// An array of strings, or `nil` when absent.
    func stringArray(_ key: String) throws(CatFactsError) -> [String]? {
        switch values[key] {
        case nil: return nil
        case .array(let items)?:
            var strings: [String] = []
            for item in items {
                guard case .string(let text) = item else { throw .argument("'\(key)' in \(what) must be an array of strings") }
                strings.append(text)
            }
            return strings
        default: throw .argument("'\(key)' in \(what) must be an array of strings")
        }
    }

    func string(_ key: String) throws(CatFactsError) -> String? {
        switch values[key] {
        case nil: return nil
        case .string(let value)?: return value
        default: throw .argument("'\(key)' in \(what) must be a string")
        }
    }
}
