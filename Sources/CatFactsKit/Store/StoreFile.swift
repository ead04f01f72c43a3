import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens the cache's database: a file made ready for use, or memory.
enum StoreFile {
    /// How long a connection waits for another process's write lock before failing.
    static let busyTimeout: Duration = .seconds(5)
    /// How many times a file another process may be creating is opened before giving up.
    static let attempts = 10

    /// A private in-memory database with the schema.
    static func openMemory() -> SQLiteConnection {
        do {
            let db = try SQLiteConnection(path: nil)
            try StoreSchema.migrate(db)
            return db
        } catch {
            // An in-memory SQLite database only fails to open when memory is exhausted.
            fatalError("the in-memory cache cannot be created: \(error)")
        }
    }

    /// The file at `path` in WAL mode with the schema, or `nil` (with a warning) when it
    /// cannot be used. A corrupt or foreign file is moved to `<path>.corrupt-<timestamp>`
    /// (with its `-wal` and `-shm` files) and a new one is made in its place.
    static func open(path: String, warnings: StoreWarnings) -> SQLiteConnection? {
        let folder = FileSystem.absolute(FileSystem.folder(of: path))
        if let reason = FileSystem.createFolders(folder) {
            warnings.add("cannot create the folder of the cache file \(path): \(reason)")
            return nil
        }
        // SQLite writes the file, its -wal and its -shm in the folder: without write access
        // there (a read-only mount) it fails, and its error names only its last try ("No
        // such file or directory"), not why.
        if access(folder, W_OK) != 0 {
            warnings.add("cannot use the cache file \(path): its folder \(folder) is not writable (\(String(cString: strerror(errno))))")
            return nil
        }
        switch attempt(path, warnings: warnings) {
        case .success(let db):
            return db
        case .failure(.unusable(let reason)):
            warnings.add("cannot open the cache file \(path): \(reason)")
            return nil
        case .failure(.damaged(let reason)):
            guard let aside = moveAside(path, warnings: warnings) else { return nil }
            warnings.add("the cache file \(path) \(reason); moved it to \(aside) and started a new cache")
            switch attempt(path, warnings: warnings) {
            case .success(let db): return db
            case .failure(.unusable(let reason)), .failure(.damaged(let reason)):
                warnings.add("cannot open the new cache file \(path): \(reason)")
                return nil
            }
        }
    }

    /// Why a file could not be opened: damaged (move it aside) or unusable (leave it be).
    enum Failure: Error { case damaged(String), unusable(String) }

    /// Opens, checks and migrates the file. Another process may be creating the same file
    /// at the same moment (switching it to WAL or migrating it): a failure is tried again a
    /// few times, on a new connection, before the file is given up on.
    private static func attempt(_ path: String, warnings: StoreWarnings) -> Result<SQLiteConnection, Failure> {
        if let failure = inspect(path) { return .failure(failure) }
        var attempt = 1
        while true {
            do {
                let db = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
                try useWAL(db)
                switch try StoreSchema.kind(of: db) {
                case .foreign:
                    return .failure(.damaged("is not a CatFacts cache (another program's SQLite database)"))
                case .empty, .ours:
                    for notice in try StoreSchema.migrate(db) { warnings.add("the cache file \(path): \(notice)") }
                    return .success(db)
                }
            } catch {
                let failure = classify(error)
                guard case .unusable = failure, attempt < attempts else { return .failure(failure) }
                usleep(UInt32(20_000 * attempt))  // 20 ms, then 40 ms, …
                attempt += 1
            }
        }
    }

    /// Switches the file to WAL (readers and a writer in other processes do not block each
    /// other), syncing at checkpoints only: a killed process loses nothing committed.
    private static func useWAL(_ db: SQLiteConnection) throws(SQLiteError) {
        let sql = "PRAGMA journal_mode = WAL"
        let mode = try db.firstRow(sql) { row throws(SQLiteError) in try row.text(0) }
        guard mode == "wal" else {
            throw SQLiteError(code: SQLITE_ERROR, message: "could not switch to WAL mode (still \(mode ?? "unknown"))", sql: sql)
        }
        try db.execute("PRAGMA synchronous = NORMAL")
    }

    /// Looks at an existing file read-only (opening it for writing would switch someone
    /// else's database to WAL): why it must not be opened, or `nil`.
    private static func inspect(_ path: String) -> Failure? {
        // stat(2), not FileManager's attributes: their size is an NSNumber with Foundation
        // and a UInt without, and no one cast reads both.
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return nil }
        do {
            let db = try SQLiteConnection(path: path, readOnly: true, busyTimeout: busyTimeout)
            if try StoreSchema.kind(of: db) == .foreign {
                return .damaged("is not a CatFacts cache (another program's SQLite database)")
            }
            return nil
        } catch {
            let failure = classify(error)
            if case .damaged = failure { return failure }
            return nil  // e.g. a WAL file only a writer can recover: let the writer try
        }
    }

    /// Not a database, or a damaged one: damaged; anything else (permissions, locks): unusable.
    private static func classify(_ error: SQLiteError) -> Failure {
        error.isDamage ? .damaged("is not a valid SQLite database (\(error.message))") : .unusable("\(error)")
    }

    /// Renames the file and its companions to `<path>.corrupt-<timestamp>`; that name, or `nil`.
    @_optimize(size)  // once per corrupt file
    private static func moveAside(_ path: String, warnings: StoreWarnings) -> String? {
        let stamp = Timestamp.now.iso8601Basic
        var aside = "\(path).corrupt-\(stamp)"
        var n = 1
        while FileSystem.exists(aside) {
            n += 1
            aside = "\(path).corrupt-\(stamp)-\(n)"
        }
        if let reason = FileSystem.move(path, to: aside) {
            warnings.add("the cache file \(path) is damaged and cannot be moved aside: \(reason)")
            return nil
        }
        for suffix in ["-wal", "-shm"] where FileSystem.exists(path + suffix) {
            _ = FileSystem.move(path + suffix, to: aside + suffix)
        }
        return aside
    }
}
