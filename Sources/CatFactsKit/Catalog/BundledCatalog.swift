/// The catalog of breeds and facts shipped inside the library, written by the CatFacts team.
///
/// It answers when the network is unreachable and nothing is cached (always labelled
/// ``Source/offlineCatalog``), and it is what `catfacts-mock` serves by default.
/// It is compiled in as Swift values, not a resource file, so the shared library
/// carries it wherever it is copied.
public enum BundledCatalog {
    /// Facts no longer than `maxLength` (all facts for `nil` or a value of 0 or less).
    public static func facts(maxLength: Int?) -> [Fact] {
        guard let maxLength, maxLength > 0 else { return facts }
        return facts.filter { $0.length <= maxLength }
    }
}
