import GRDB

/// The cache file's schema and how it is migrated (GRDB's `DatabaseMigrator`).
///
/// A file is ours when its `application_id` is ``applicationID``; an empty file becomes
/// ours; anything else is foreign and is moved aside, never changed.
enum StoreSchema {
    /// `PRAGMA application_id` of a CatFacts cache: "CaFa" in ASCII.
    static let applicationID: Int32 = 0x4361_4661

    /// The migrations, in order. Each runs in its own transaction, so a process killed
    /// during one leaves the file as it was; each is idempotent, so two processes creating
    /// the same file at once both succeed (the later one's attempt is retried by `StoreFile`).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: response") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS response (
                    key TEXT PRIMARY KEY NOT NULL,
                    endpoint TEXT NOT NULL,
                    body BLOB NOT NULL,
                    size INTEGER NOT NULL,
                    fetched_at DOUBLE NOT NULL,
                    last_used_at DOUBLE NOT NULL,
                    etag TEXT,
                    last_modified TEXT
                );
                CREATE INDEX IF NOT EXISTS response_last_used ON response(last_used_at);
                PRAGMA application_id = \(applicationID);
                """)
        }
        migrator.registerMigration("v2: size index") { db in
            // Lets the size cap be summed from a small index instead of reading every row,
            // bodies included, on each save.
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS response_size ON response(size)")
        }
        migrator.registerMigration("v3: denied prefix") { db in
            // Prefixes that found no breed name, filed under the catalog they were asked of
            // (its fingerprint), so a changed catalog never inherits them.
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS denied_prefix (
                    catalog TEXT NOT NULL,
                    prefix TEXT NOT NULL,
                    PRIMARY KEY (catalog, prefix)
                ) WITHOUT ROWID
                """)
        }
        return migrator
    }

    /// What an opened file holds.
    enum Kind { case empty, ours, foreign }

    /// Whether the file is empty, ours or someone else's.
    static func kind(of db: Database) throws -> Kind {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if id == applicationID { return .ours }
        // GRDB's own bookkeeping table may exist before the first migration commits.
        let objects = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE tbl_name != 'grdb_migrations'") ?? 0
        return id == 0 && objects == 0 ? .empty : .foreign
    }
}
