import Foundation

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

    /// The choice the flags make.
    static func choose(path: String?, noCache: Bool, mock: Bool, environment: [String: String]) -> CacheChoice {
        if noCache { return .off }
        if let path { return .file(path) }
        if mock { return .memory }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return .file(base + "/catfacts/cache.sqlite")
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
