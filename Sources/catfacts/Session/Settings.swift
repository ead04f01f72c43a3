/// The session's settings, changed with `set`.
struct Settings: Sendable {
    /// Items per page for `breeds`, `facts` and `scroll`.
    var pageSize = 10
    /// How results are printed.
    var output = OutputMode.table

    /// The largest page size accepted (the real service caps pages near this too).
    static let maxPageSize = 1000
}
