/// The program the library is loaded into, and the library's own version.
public struct AppInfo: Sendable, Equatable, Codable {
    /// The host process's name (e.g. `python3`, `page_breeds`, `catfacts`).
    public var name: String
    public var libraryVersion: String

    enum CodingKeys: String, CodingKey {
        case name, libraryVersion = "library_version"
    }

    static func read() -> AppInfo {
        let name = ProcessEnvironment.programName
        return AppInfo(name: name.isEmpty ? SystemInfo.unknown : name, libraryVersion: LibraryVersion.string)
    }
}
