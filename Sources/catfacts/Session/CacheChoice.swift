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

    /// The choice the flags make. The library's cache keys leave the server out (one file
    /// serves the API behind any address), so the default file is per server: pages of a
    /// `--base-url` server (a mock, a staging copy) never answer for the real service.
    static func choose(path: String?, noCache: Bool, mock: Bool, baseURL: String?,
                       environment: [String: String]) -> CacheChoice {
        if noCache { return .off }
        if let path { return .file(path) }
        if mock { return .memory }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.cache"
        return .file(base + "/catfacts/" + fileName(for: baseURL))
    }

    /// `cache.sqlite` for the real service; `cache-HOST-PORT-PATH.sqlite` for another server.
    static func fileName(for baseURL: String?) -> String {
        guard let baseURL, let url = URLComponents(string: baseURL), let host = url.host,
              String(baseURL.reversed().drop { $0 == "/" }.reversed()) != ClientOptions.defaultBaseURL else {
            return "cache.sqlite"
        }
        let parts = [host, url.port.map(String.init) ?? url.scheme ?? "", url.path]
        let name = parts.joined(separator: "-").map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" }
        let trimmed = name.drop { $0 == "-" }.reversed().drop { $0 == "-" }.reversed()
        return "cache-" + String(trimmed) + ".sqlite"
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
