import GRDB

extension ResponseStore {
    /// The prefixes denied for `catalog` (a ``BreedCatalogView`` fingerprint). Denials filed
    /// under any other catalog are deleted in the same transaction: the catalog changed.
    public func deniedPrefixes(catalog: String) throws(CatFactsError) -> [String] {
        try run("read the denied prefixes") {
            try writer.write { db in
                try db.execute(sql: "DELETE FROM denied_prefix WHERE catalog != ?", arguments: [catalog])
                return try String.fetchAll(db, sql: "SELECT prefix FROM denied_prefix WHERE catalog = ? ORDER BY prefix",
                                           arguments: [catalog])
            }
        }
    }

    /// Files `prefix` as denied for `catalog`, dropping the longer prefixes it covers.
    public func denyPrefix(_ prefix: String, catalog: String) throws(CatFactsError) {
        try run("save the denied prefix \"\(prefix)\"") {
            try writer.write { db in
                // SQLite's substr counts code points, as unicodeScalars does.
                try db.execute(sql: "DELETE FROM denied_prefix WHERE catalog = ? AND prefix != ? AND substr(prefix, 1, ?) = ?",
                               arguments: [catalog, prefix, prefix.unicodeScalars.count, prefix])
                try db.execute(sql: "INSERT OR IGNORE INTO denied_prefix (catalog, prefix) VALUES (?, ?)",
                               arguments: [catalog, prefix])
            }
        }
    }
}
