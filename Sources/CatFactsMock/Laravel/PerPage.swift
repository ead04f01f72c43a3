/// How a page reports `per_page`: the real service echoes the `limit` parameter as a string
/// (`"5"`) and sends its default page size as a number.
enum PerPage: Equatable {
    /// The default page size, sent as a JSON number.
    case number(Int)
    /// A size the request gave with `limit` (capped), sent as a JSON string.
    case string(Int)

    /// The page size itself.
    var value: Int {
        switch self {
        case .number(let size), .string(let size): size
        }
    }
}
