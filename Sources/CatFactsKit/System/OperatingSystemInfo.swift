/// The operating system: its name and version, and the kernel's release.
public struct OperatingSystemInfo: Sendable, Equatable, Codable {
    public var name: String
    public var version: String
    public var kernel: String

    static func read() -> OperatingSystemInfo {
        let kernel = SystemInfo.uname().release
        #if os(Linux)
        let release = (SystemInfo.readText("/etc/os-release") ?? SystemInfo.readText("/usr/lib/os-release"))
            .map(parseOSRelease) ?? [:]
        return OperatingSystemInfo(name: release["NAME"] ?? "Linux",
                                   version: release["VERSION_ID"] ?? release["VERSION"] ?? SystemInfo.unknown,
                                   kernel: kernel)
        #else
        var text = [CChar](repeating: 0, count: 64)
        var size = text.count
        let version = sysctlbyname("kern.osproductversion", &text, &size, nil, 0) == 0
            ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : SystemInfo.unknown
        return OperatingSystemInfo(name: "macOS", version: version, kernel: kernel)
        #endif
    }

    /// `KEY=value` lines of os-release(5), quotes removed.
    @_optimize(size)  // once per process
    static func parseOSRelease(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !line.hasPrefix("#") else { continue }
            var value = parts[1].trimmed()
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            if !value.isEmpty { fields[String(parts[0])] = value }
        }
        return fields
    }
}
