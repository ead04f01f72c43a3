import CatFactsKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the shell keeps its page cache: a file that outlives the session, so the last
/// pages seen answer when the network is gone, unless told otherwise.
enum CacheChoice: Sendable, Equatable {
    /// An SQLite file: `--cache PATH`, or `$XDG_CACHE_HOME/catfacts/cache.sqlite` by default.
    case file(String)
    /// In memory for this session only: `--mock`, whose made-up catalog must not mix with
    /// the real service's pages in the shared file.
    case memory
    /// `--no-cache`.
    case off

    /// The choice the flags make. The library files every page under its server's URL, so
    /// one file serves the real service and any `--base-url` server without mixing them.
    static func choose(path: String?, noCache: Bool, mock: Bool, environment: [String: String]) -> CacheChoice {
        if noCache { return .off }
        if let path { return .file(path) }
        if mock { return .memory }
        return .file(defaultPath(environment: environment))
    }

    /// `$XDG_CACHE_HOME/catfacts/cache.sqlite`, by default `~/.cache/catfacts/cache.sqlite`.
    static func defaultPath(environment: [String: String]) -> String {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.cache"
        return base + "/catfacts/cache.sqlite"
    }

    /// Removes the `cache-HOST-PORT.sqlite` files (and their `-wal`, `-shm`) that earlier
    /// versions kept beside `path`, one per server, when keys did not name the server; what
    /// to tell the user, or `nil` when there were none.
    static func removeEarlierPerServerFiles(beside path: String) -> String? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let old = names.filter { $0.hasPrefix("cache-") && ($0.hasSuffix(".sqlite") || $0.hasSuffix(".sqlite-wal") || $0.hasSuffix(".sqlite-shm")) }
        guard !old.isEmpty else { return nil }
        for name in old { try? FileManager.default.removeItem(atPath: folder + "/" + name) }
        let count = old.filter { $0.hasSuffix(".sqlite") }.count
        return "removed \(count) per-server cache file\(count == 1 ? "" : "s") of an earlier version from \(folder); "
            + "\(path) now serves every server"
    }

    /// What `source` says about it, with the file's age when there is one.
    var description: String {
        switch self {
        case .off: return "off (--no-cache)"
        case .memory: return "in memory, for this session (--mock)"
        case .file(let path):
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else {
                return "\(path) (empty)"
            }
            return "\(path) (last written \(Self.age(Date.now.timeIntervalSince(modified))) ago)"
        }
    }

    private static func age(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: "\(max(0, Int(seconds))) s"
        case ..<3600: "\(Int(seconds / 60)) min"
        case ..<86_400: "\(Int(seconds / 3600)) h"
        default: "\(Int(seconds / 86_400)) days"
        }
    }
}
