/// The client's cache keeps its catalog views' denied prefixes (table `denied_prefix`), so a
/// cache file carries them to the next process. Declared here, where the two meet: the store
/// knows nothing of queries, the query layer nothing of SQLite.
extension ResponseStore: DeniedPrefixStore {}
