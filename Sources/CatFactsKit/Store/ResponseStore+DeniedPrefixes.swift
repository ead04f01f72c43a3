extension ResponseStore {
    /// The prefixes denied for `catalog` (a fingerprint of the catalog's names, made by its reader). Denials filed
    /// under any other catalog are deleted in the same transaction: the catalog changed.
    package func deniedPrefixes(catalog: String) throws(CatFactsError) -> [String] {
        // A write too: it deletes the denials of other catalogs.
        try run("read the denied prefixes", writes: true) { db throws(SQLiteError) in
            try db.transaction { () throws(SQLiteError) in
                try db.execute("DELETE FROM denied_prefix WHERE catalog != ?", [.text(catalog)])
                return try db.rows("SELECT prefix FROM denied_prefix WHERE catalog = ? ORDER BY prefix", [.text(catalog)]) {
                    row throws(SQLiteError) in try row.text(0)
                }
            }
        }
    }

    /// Files `prefix` as denied for `catalog`, dropping the longer prefixes it covers.
    package func denyPrefix(_ prefix: String, catalog: String) throws(CatFactsError) {
        try run("save the denied prefix \"\(prefix)\"", writes: true) { db throws(SQLiteError) in
            try db.transaction { () throws(SQLiteError) in
                // SQLite's substr counts code points, as unicodeScalars does.
                try db.execute("DELETE FROM denied_prefix WHERE catalog = ? AND prefix != ? AND substr(prefix, 1, ?) = ?",
                               [.text(catalog), .text(prefix), .integer(Int64(prefix.unicodeScalars.count)), .text(prefix)])
                try db.execute("INSERT OR IGNORE INTO denied_prefix (catalog, prefix) VALUES (?, ?)",
                               [.text(catalog), .text(prefix)])
            }
        }
    }
}
