/// The cache file's schema and how it is migrated.
///
/// A file is ours when its `application_id` is ``applicationID``; an empty file becomes
/// ours; anything else is foreign and is moved aside, never changed.
///
/// Applied migrations are recorded by name in `grdb_migrations`, the table GRDB's
/// `DatabaseMigrator` kept when the cache went through GRDB: files written then are read
/// and upgraded as they always were, and a file written now still opens in such a version.
enum StoreSchema {
    /// `PRAGMA application_id` of a CatFacts cache: "CaFa" in ASCII.
    static let applicationID: Int32 = 0x4361_4661

    /// The table listing the migrations applied, one `identifier` a row.
    static let migrationsTable = "grdb_migrations"

    /// The migrations, in order: a name (recorded once applied) and its SQL.
    static let migrations: [(identifier: String, sql: String)] = [
        // PRAGMA takes no parameters: the application id is written into the SQL (this
        // type's constant, never a value from outside).
        ("v1: response", """
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
            """),
        // Lets the size cap be summed from a small index instead of reading every row,
        // bodies included, on each save.
        ("v2: size index", "CREATE INDEX IF NOT EXISTS response_size ON response(size)"),
        // Prefixes that found no breed name, filed under the catalog they were asked of
        // (its fingerprint), so a changed catalog never inherits them.
        ("v3: denied prefix", """
            CREATE TABLE IF NOT EXISTS denied_prefix (
                catalog TEXT NOT NULL,
                prefix TEXT NOT NULL,
                PRIMARY KEY (catalog, prefix)
            ) WITHOUT ROWID
            """),
        // Keys now begin with the server (CacheKey.origin). Pages filed without it, by an
        // earlier version, could answer for another server: they are dropped, never misread.
        (dropsKeysWithoutOrigin, "DELETE FROM response WHERE substr(key, 1, 1) = '/'"),
        // The page as decoded, beside its body, so a hit is a copy and not a decode, with the
        // layout's version (BreedArenaPage.format): rows of an earlier library, or of another
        // layout, have none that fits and are decoded from their bodies.
        ("v5: decoded page", "ALTER TABLE response ADD COLUMN decoded BLOB; ALTER TABLE response ADD COLUMN decoded_format INTEGER"),
        // When a row was last used, and last confirmed by the server (a 304), written apart
        // from it: SQLite rewrites a whole row to change one column, bodies included, so
        // noting a use in `response` rewrote (and copied through the heap) every page hit.
        // Every row saved from now on has one here; a row's own times count when they are
        // later (an earlier library's, sharing the file). The indexes hold what the
        // least-recently-used order reads (ResponseStore.leastRecentlyUsed), so that it reads
        // no row; the rows filed before have their times copied.
        ("v6: use times", """
            CREATE TABLE IF NOT EXISTS response_times (
                key TEXT PRIMARY KEY NOT NULL,
                last_used_at DOUBLE NOT NULL,
                fetched_at DOUBLE
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS response_times_used ON response_times(last_used_at);
            CREATE INDEX IF NOT EXISTS response_key_times ON response(key, last_used_at, size);
            INSERT OR IGNORE INTO response_times (key, last_used_at) SELECT key, last_used_at FROM response;
            """),
    ]

    /// The migration that drops pages filed without their server; how many it dropped is
    /// reported as a cache warning.
    static let dropsKeysWithoutOrigin = "v4: keys with their origin"

    /// Applies the migrations `db` lacks, each in its own transaction, so a process killed
    /// during one leaves the file as it was. Another process may be migrating the same file
    /// at the same moment: each transaction holds the write lock and checks again that its
    /// migration is still missing, so the two never apply one twice.
    /// Returns what a user should hear about: pages dropped by a migration.
    @discardableResult
    @_optimize(size)
    static func migrate(_ db: SQLiteConnection) throws(SQLiteError) -> [String] {
        var notices: [String] = []
        try db.execute("CREATE TABLE IF NOT EXISTS \(migrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
        // Read first without the write lock: an up-to-date file, the usual case, takes none.
        let applied = Set(try db.rows("SELECT identifier FROM \(migrationsTable)") { row throws(SQLiteError) in try row.text(0) })
        for migration in migrations where !applied.contains(migration.identifier) {
            try db.transaction { () throws(SQLiteError) in
                guard try !isApplied(migration.identifier, in: db) else { return }
                try db.execute(migration.sql)
                if migration.identifier == dropsKeysWithoutOrigin, db.changes > 0 {
                    notices.append("dropped \(db.changes) cached page(s) an earlier version filed without their server "
                                   + "(they could have answered for another one); they load again when asked")
                }
                try db.execute("INSERT INTO \(migrationsTable) (identifier) VALUES (?)", [.text(migration.identifier)])
            }
        }
        return notices
    }

    private static func isApplied(_ identifier: String, in db: SQLiteConnection) throws(SQLiteError) -> Bool {
        try db.firstRow("SELECT 1 FROM \(migrationsTable) WHERE identifier = ?", [.text(identifier)]) { _ in true } ?? false
    }

    /// What an opened file holds.
    enum Kind { case empty, ours, foreign }

    /// Whether the file is empty, ours or someone else's.
    ///
    /// The id and the tables are read by one statement, so from one snapshot: read by two,
    /// another process's first migration could commit between them (no id yet, then its
    /// tables), and a file being created would look foreign and be moved aside.
    static func kind(of db: SQLiteConnection) throws(SQLiteError) -> Kind {
        let sql = """
            SELECT (SELECT application_id FROM pragma_application_id),
                   (SELECT count(*) FROM sqlite_master WHERE tbl_name != ?)
            """
        let (id, objects) = try db.firstRow(sql, [.text(migrationsTable)]) { row throws(SQLiteError) in
            (try row.int64(0), try row.int64(1))
        } ?? (0, 0)
        if id == Int64(applicationID) { return .ours }
        // The migrations table may exist before the first migration commits.
        return id == 0 && objects == 0 ? .empty : .foreign
    }
}
