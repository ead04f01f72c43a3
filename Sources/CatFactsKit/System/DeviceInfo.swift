/// The machine: who made it, what model, which architecture, how many CPUs.
public struct DeviceInfo: Sendable, Equatable, Codable {
    public var make: String
    public var model: String
    public var arch: String
    public var cpus: Int

    static func read() -> DeviceInfo {
        let (make, model) = makeAndModel()
        return DeviceInfo(make: make, model: model, arch: SystemInfo.uname().machine,
                          cpus: ProcessEnvironment.activeProcessorCount)
    }

    #if os(Linux)
    /// DMI names the board's maker and product; virtual machines and containers often
    /// leave them out or unreadable, and then the CPU is the best description there is.
    private static func makeAndModel() -> (String, String) {
        let vendor = SystemInfo.readText("/sys/class/dmi/id/sys_vendor").flatMap(meaningful)
        let product = SystemInfo.readText("/sys/class/dmi/id/product_name").flatMap(meaningful)
        let cpu = cpuInfo()
        return (vendor ?? cpu.vendor ?? SystemInfo.unknown, product ?? cpu.model ?? SystemInfo.unknown)
    }

    /// Firmware placeholders that name nothing.
    private static func meaningful(_ text: String) -> String? {
        let placeholders = ["to be filled by o.e.m.", "default string", "system product name",
                            "system manufacturer", "not specified", "none", "n/a"]
        return placeholders.contains(text.lowercased()) ? nil : text
    }

    @_optimize(size)  // once per process
    private static func cpuInfo() -> (vendor: String?, model: String?) {
        guard let text = SystemInfo.readText("/proc/cpuinfo") else { return (nil, nil) }
        var vendor: String?
        var model: String?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmed()
            let value = parts[1].trimmed()
            guard !value.isEmpty else { continue }
            if vendor == nil, key == "vendor_id" || key == "CPU implementer" { vendor = value }
            if model == nil, key == "model name" || key == "Model" { model = value }
            if vendor != nil, model != nil { break }
        }
        return (vendor, model)
    }
    #elseif canImport(Darwin)
    private static func makeAndModel() -> (String, String) {
        var size = 0
        guard sysctlbyname("hw.model", nil, &size, nil, 0) == 0, size > 0 else { return ("Apple", SystemInfo.unknown) }
        var bytes = [UInt8](repeating: 0, count: size)
        guard sysctlbyname("hw.model", &bytes, &size, nil, 0) == 0 else { return ("Apple", SystemInfo.unknown) }
        return ("Apple", String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self))
    }
    #else
    private static func makeAndModel() -> (String, String) { (SystemInfo.unknown, SystemInfo.unknown) }
    #endif
}
