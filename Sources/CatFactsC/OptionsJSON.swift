import CatFactsKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON options object from C (`options_json`), read strictly: an unknown key or a value
/// of the wrong type (`null` included: leave a key out for its default) is an argument
/// error naming the key, so a typo never passes silently.
struct OptionsJSON {
    private indirect enum Value: Decodable {
        case bool(Bool), integer(Int64), number(Double), string(String), null
        case array([Value]), object([String: Value])

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let value = try? c.decode(Bool.self) { self = .bool(value) }
            else if let value = try? c.decode(Int64.self) { self = .integer(value) }
            else if let value = try? c.decode(Double.self) { self = .number(value) }
            else if let value = try? c.decode(String.self) { self = .string(value) }
            else if let value = try? c.decode([Value].self) { self = .array(value) }
            else { self = .object(try c.decode([String: Value].self)) }
        }
    }

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
        do {
            values = try JSONDecoder().decode([String: Value].self, from: Data(string.utf8))
        } catch {
            throw .argument("\(what) must be a JSON object with any of the keys \(allowed.sorted().joined(separator: ", ")); got: \(string.prefix(80))")
        }
        if let unknown = values.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .argument("unknown key '\(unknown)' in \(what); known keys: \(allowed.sorted().joined(separator: ", "))")
        }
    }

    /// A whole number within `range` (each option's range is in the header, next to it),
    /// or `nil` when absent. Every value the library computes with from it stays far from
    /// overflowing: the ranges are what keep a caller's number from trapping the process.
    func integer(_ key: String, in range: ClosedRange<Int64>) throws(CatFactsError) -> Int? {
        switch values[key] {
        case nil: return nil
        case .integer(let value)?:
            guard range.contains(value), let int = Int(exactly: value) else {
                throw .argument("'\(key)' in \(what) must be in \(range.lowerBound)...\(range.upperBound); got \(value)")
            }
            return int
        default: throw .argument("'\(key)' in \(what) must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
    }

    /// The longest wait an option may ask for: a day, in milliseconds.
    static let day: Int64 = 86_400_000

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

extension ClientOptions {
    static let jsonKeys: Set<String> = ["timeout_ms", "connect_timeout_ms", "retries", "cache_path", "cache_max_bytes",
                                        "cache_ttl_ms", "offline_fallback", "user_agent", "max_body_bytes", "proxy", "deadline_ms",
                                        "read_ahead"]

    /// The longest base URL or proxy URL accepted, in bytes: what servers and proxies take.
    static let longestURL = 2048
    /// The longest User-Agent accepted, in bytes: a header line servers take.
    static let longestUserAgent = 1024

    /// Options from `cf_client_open`'s arguments.
    @_optimize(size)
    package init(baseURL: UnsafePointer<CChar>?, json: UnsafePointer<CChar>?) throws(CatFactsError) {
        var url: String?
        if let baseURL {
            let text = try CText.string(baseURL, what: "base_url")
            try CText.requireLength(text, what: "base_url", atMost: Self.longestURL)
            try CText.requireNoControlOrSpace(text, what: "base_url")
            url = text
        }
        let options = try OptionsJSON(json, what: "client options", allowed: Self.jsonKeys)
        self.init(baseURL: url)
        if let ms = try options.integer("timeout_ms", in: 1...OptionsJSON.day) { limits.totalTimeout = .milliseconds(ms) }
        if let ms = try options.integer("connect_timeout_ms", in: 1...OptionsJSON.day) { limits.connectTimeout = .milliseconds(ms) }
        if let ms = try options.integer("deadline_ms", in: 1...OptionsJSON.day) { deadline = .milliseconds(ms) }
        if let bytes = try options.integer("max_body_bytes", in: 1...(1 << 31)) { limits.maxBodyBytes = bytes }
        if let retries = try options.integer("retries", in: 0...100) { retry.retries = retries }
        if let fallback = try options.bool("offline_fallback") { offlineFallback = fallback }
        if let agent = try options.string("user_agent") {
            try CText.requireLength(agent, what: "user_agent", atMost: Self.longestUserAgent)
            userAgent = agent
        }
        if let proxy = try options.string("proxy") {
            try CText.requireLength(proxy, what: "proxy", atMost: Self.longestURL)
            self.proxy = proxy
        }
        if let path = try options.string("cache_path") {
            guard !path.isEmpty else { throw .argument("'cache_path' in client options is empty; leave it out for a memory-only cache") }
            cachePath = path
        }
        if let bytes = try options.integer("cache_max_bytes", in: 0...(1 << 40)) { cacheMaxBytes = bytes }
        if let ms = try options.integer("cache_ttl_ms", in: 0...(365 * OptionsJSON.day)) { cacheTTL = .milliseconds(ms) }
        if let pages = try options.integer("read_ahead", in: 0...Int64(ClientOptions.maxReadAhead)) { readAhead = Int(pages) }
    }
}

extension PagingOptions {
    static let jsonKeys: Set<String> = ["page_size", "prefetch_distance", "max_cached_items", "max_length"]

    /// Options from `cf_list_open`'s JSON, and the facts' `max_length` (0: none).
    package static func parse(_ json: UnsafePointer<CChar>?) throws(CatFactsError) -> (PagingOptions, maxLength: Int) {
        let options = try OptionsJSON(json, what: "list options", allowed: jsonKeys)
        let pageSize = try options.integer("page_size", in: 1...100_000) ?? 25
        let paging = PagingOptions(pageSize: pageSize,
                                   prefetchDistance: try options.integer("prefetch_distance", in: 0...1_000_000),
                                   maxCachedItems: try options.integer("max_cached_items", in: 1...10_000_000) ?? 500)
        return (paging, try options.integer("max_length", in: 0...1_000_000) ?? 0)
    }
}

extension BreedQuery {
    static let jsonKeys: Set<String> = ["search", "group_by", "sort_by", "descending", "where", "present", "limit"]

    /// A query from `cf_breeds_query`'s JSON.
    @_optimize(size)  // once per query
    package static func parse(_ json: UnsafePointer<CChar>?) throws(CatFactsError) -> BreedQuery {
        let options = try OptionsJSON(json, what: "the query", allowed: jsonKeys)
        func field(_ name: String, key: String) throws(CatFactsError) -> Breed.Field {
            try Breed.Field.named(name, key: key, in: "the query")
        }
        var query = BreedQuery()
        query.search = try options.string("search")
        if let name = try options.string("group_by") { query.groupBy = try field(name, key: "group_by") }
        if let name = try options.string("sort_by") { query.sortBy = try field(name, key: "sort_by") }
        query.descending = try options.bool("descending") ?? false
        for (name, value) in try options.stringMap("where") ?? [:] {
            query.whereValues[try field(name, key: "where")] = value
        }
        for name in try options.stringArray("present") ?? [] {
            query.present.insert(try field(name, key: "present"))
        }
        query.limit = try options.integer("limit", in: 0...1_000_000)
        return query
    }
}

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
