/// Where a catalog view keeps the prefixes that found nothing, so the next process starts
/// with them. The client gives its page cache (``ResponseStore``); a view without one keeps
/// its deny-list in memory only. A store reports its own failures (the cache's warnings):
/// the view goes on without it.
package protocol DeniedPrefixStore: Sendable {
    /// The prefixes denied for `catalog` (the view's ``BreedCatalogView/fingerprint``),
    /// forgetting those filed under any other catalog: the catalog changed.
    func deniedPrefixes(catalog: String) throws(CatFactsError) -> [String]
    /// Files `prefix` as denied for `catalog`.
    func denyPrefix(_ prefix: String, catalog: String) throws(CatFactsError)
}
