/// The library's version; `cf_version()` and the `CF_VERSION_*` macros say the same.
public enum LibraryVersion {
    public static let major = 0
    public static let minor = 2
    public static let patch = 0
    /// "MAJOR.MINOR.PATCH".
    public static let string = "\(major).\(minor).\(patch)"
    /// The `User-Agent` every request carries unless the caller sets another.
    public static let userAgent = "CatFacts/\(string) (+https://github.com/catfacts/catfacts)"
}
