/// The query parameters a route takes, validated like the real service: `page`, `limit` and
/// `max_length` must be integers, `limit` at least 1. Parameters a route does not take are ignored.
struct ListQuery: Equatable {
    /// A parameter a route takes.
    enum Parameter: String {
        case page, limit
        case maxLength = "max_length"

        /// The name in Laravel's messages ("The max length must be an integer.").
        var label: String { String(rawValue.map { $0 == "_" ? " " : $0 }) }
    }

    /// The page asked for; below 1 (or absent) means page 1, as Laravel's paginator treats it.
    var page: Int = 1
    /// `limit` as given, or `nil` when absent (the route's default page size applies).
    var limit: Int?
    /// `max_length` as given; `nil`, 0 or less means no filter.
    var maxLength: Int?

    /// Reads the `accepted` parameters from `parameters` (the last occurrence of a name wins, as
    /// in PHP; an empty value counts as absent, as Laravel's `ConvertEmptyStringsToNull` makes it).
    init(_ parameters: some Sequence<(key: Substring, value: Substring)>,
         accepting accepted: [Parameter]) throws(LaravelValidationError) {
        var raw: [Substring: Substring] = [:]
        for (key, value) in parameters { raw[key] = value }

        var failure = LaravelValidationError()
        func integer(_ parameter: Parameter) -> Int? {
            guard accepted.contains(parameter),
                  let text = raw[Substring(parameter.rawValue)],
                  !text.trimmingSpaces.isEmpty else { return nil }
            guard let value = LaravelInteger.parse(text) else {
                failure.errors.append((parameter.rawValue, "The \(parameter.label) must be an integer."))
                return nil
            }
            return value
        }
        page = max(1, integer(.page) ?? 1)
        limit = integer(.limit)
        if let limit, limit < 1 {
            failure.errors.append(("limit", "The limit must be at least 1."))
        }
        maxLength = integer(.maxLength)
        if !failure.errors.isEmpty { throw failure }
    }

    /// The page size to serve and how `per_page` reports it: the route's default as a number,
    /// or `limit` (capped at `cap`) as a string.
    func perPage(default size: Int, cap: Int) -> PerPage {
        guard let limit else { return .number(size) }
        return .string(min(limit, max(1, cap)))
    }
}
