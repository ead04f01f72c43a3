import Foundation
import GRDB

/// Opens the cache's database: a file made ready for use, or memory.
enum StoreFile {
    /// How long a connection waits for another process's write lock before failing.
    static let busyTimeout: TimeInterval = 5

    /// A private in-memory database with the schema.
    static func openMemory() -> any DatabaseWriter {
        do {
            let queue = try DatabaseQueue(configuration: configuration())
            try StoreSchema.migrator.migrate(queue)
            return queue
        } catch {
            // An in-memory SQLite database only fails to open when memory is exhausted.
            fatalError("the in-memory cache cannot be created: \(error)")
        }
    }

    /// The file at `path` as a WAL pool with the schema, or `nil` (with a warning) when it
    /// cannot be used. A corrupt or foreign file is moved to `<path>.corrupt-<timestamp>`
    /// (with its `-wal` and `-shm` files) and a new one is made in its place.
    static func open(path: String, warnings: StoreWarnings) -> DatabasePool? {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            warnings.add("cannot create the folder of the cache file \(path): \(error.localizedDescription)")
            return nil
        }
        switch attempt(path) {
        case .success(let pool):
            return pool
        case .failure(.unusable(let reason)):
            warnings.add("cannot open the cache file \(path): \(reason)")
            return nil
        case .failure(.damaged(let reason)):
            guard let aside = moveAside(path, warnings: warnings) else { return nil }
            warnings.add("the cache file \(path) \(reason); moved it to \(aside) and started a new cache")
            switch attempt(path) {
            case .success(let pool): return pool
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
    /// few times, with the pool opened anew, before the file is given up on.
    private static func attempt(_ path: String) -> Result<DatabasePool, Failure> {
        if let failure = inspect(path) { return .failure(failure) }
        var lastError: (any Error)?
        for attempt in 0..<10 {
            var opened: DatabasePool?
            do {
                let pool = try DatabasePool(path: path, configuration: configuration())
                opened = pool
                switch try pool.read(StoreSchema.kind(of:)) {
                case .foreign:
                    try? pool.close()
                    return .failure(.damaged("is not a CatFacts cache (another program's SQLite database)"))
                case .empty, .ours:
                    try StoreSchema.migrator.migrate(pool)
                    return .success(pool)
                }
            } catch {
                try? opened?.close()
                lastError = error
                if case .damaged = classify(error) { break }
                Thread.sleep(forTimeInterval: 0.02 * Double(attempt + 1))
            }
        }
        return .failure(classify(lastError ?? CatFactsError.internal("migration failed")))
    }

    /// Looks at an existing file read-only (opening a pool would switch someone else's
    /// database to WAL): why it must not be opened, or `nil`.
    private static func inspect(_ path: String) -> Failure? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 else { return nil }
        var configuration = configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            if try queue.read(StoreSchema.kind(of:)) == .foreign {
                return .damaged("is not a CatFacts cache (another program's SQLite database)")
            }
            return nil
        } catch {
            let failure = classify(error)
            if case .damaged = failure { return failure }
            return nil  // e.g. a WAL file only a writer can recover: let the pool try
        }
    }

    /// Not a database, or a damaged one: damaged; anything else (permissions, locks): unusable.
    private static func classify(_ error: any Error) -> Failure {
        if let error = error as? DatabaseError,
           error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            return .damaged("is not a valid SQLite database (\(error.message ?? "\(error.resultCode)"))")
        }
        return .unusable("\(error)")
    }

    /// Renames the file and its companions to `<path>.corrupt-<timestamp>`; that name, or `nil`.
    private static func moveAside(_ path: String, warnings: StoreWarnings) -> String? {
        let stamp = Date.now.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false)
            .dateSeparator(.omitted).timeSeparator(.omitted).dateTimeSeparator(.standard))
        var aside = "\(path).corrupt-\(stamp)"
        var n = 1
        while FileManager.default.fileExists(atPath: aside) {
            n += 1
            aside = "\(path).corrupt-\(stamp)-\(n)"
        }
        do {
            try FileManager.default.moveItem(atPath: path, toPath: aside)
        } catch {
            warnings.add("the cache file \(path) is damaged and cannot be moved aside: \(error.localizedDescription)")
            return nil
        }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
        return aside
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "CatFacts cache"
        return configuration
    }
}
