/// The session's settings, changed with `set` (the output format is ``Output``'s).
struct Settings: Sendable {
    /// Items per page for `breeds`, `facts` and `scroll`.
    var pageSize = 10

    /// The largest page size accepted (the real service caps pages near this too).
    static let maxPageSize = 1000
}
