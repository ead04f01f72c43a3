import CReadline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the shell keeps its history: `$XDG_STATE_HOME/catfacts/history`, by default
/// `~/.local/state/catfacts/history`, its folders made when missing. Every line is appended
/// as it is entered, so a crash loses nothing; the file is trimmed to the last
/// ``limit`` lines at start.
struct HistoryFile {
    let path: String
    /// Lines kept.
    static let limit: Int32 = 1000

    /// The history file's path for `environment`, `nil` with neither `XDG_STATE_HOME` nor `HOME`.
    static func path(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/catfacts/history"
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/catfacts/history"
    }

    /// Makes the folders and the file if needed and loads the history into readline.
    /// `nil` when the file cannot be made (the shell then runs without saved history).
    init?(path: String) {
        self.path = path
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil,
                                                 attributes: [.posixPermissions: 0o600]) else { return nil }
        }
        stifle_history(Self.limit)
        _ = history_truncate_file(path, Self.limit)
        _ = read_history(path)
    }

    /// Adds `line` to the history and the file, unless it repeats the line before it.
    func add(_ line: String) {
        if let last = catfacts_history_last(), String(cString: last) == line { return }
        add_history(line)
        _ = append_history(1, path)
    }
}
