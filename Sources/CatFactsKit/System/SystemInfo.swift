/// What the library runs on. Read once per process: none of it changes while it runs.
/// A source that cannot be read gives "unknown", never a failure.
public struct SystemInfo: Sendable, Equatable {
    public var device: DeviceInfo
    public var os: OperatingSystemInfo
    public var app: AppInfo

    /// This process's system information.
    public static let current = SystemInfo(device: .read(), os: .read(), app: .read())

    static let unknown = "unknown"

    /// The text of a small system file, trimmed; `nil` when it is missing, unreadable or blank.
    static func readText(_ path: String) -> String? {
        guard let bytes = FileSystem.contents(of: path, limit: 64 * 1024) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmed()
        return text.isEmpty ? nil : text
    }

    /// `uname(2)`'s fields, as strings.
    @_optimize(size)  // once per process
    static func uname() -> (machine: String, release: String, system: String) {
        var info = utsname()
        guard Glibc_or_Darwin_uname(&info) == 0 else { return (unknown, unknown, unknown) }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { raw in
                let bytes = raw.prefix { $0 != 0 }
                return bytes.isEmpty ? unknown : String(decoding: bytes, as: UTF8.self)
            }
        }
        return (text(info.machine), text(info.release), text(info.sysname))
    }
}

#if canImport(Glibc)
import Glibc
private func Glibc_or_Darwin_uname(_ info: inout utsname) -> Int32 { Glibc.uname(&info) }
#elseif canImport(Darwin)
import Darwin
private func Glibc_or_Darwin_uname(_ info: inout utsname) -> Int32 { Darwin.uname(&info) }
#endif
