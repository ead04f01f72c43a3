#if canImport(Darwin)
import Darwin
#endif

/// Memory this process holds now and at most so far, in bytes (0 when unreadable).
public struct MemoryUsage: Sendable, Equatable, Codable {
    /// Resident set now (Linux `VmRSS`; macOS physical footprint).
    public var residentBytes: Int
    /// The most it has been (Linux `VmHWM`; macOS lifetime peak footprint).
    public var peakResidentBytes: Int

    enum CodingKeys: String, CodingKey {
        case residentBytes = "resident_bytes", peakResidentBytes = "peak_resident_bytes"
    }

    /// Reads the process's memory now.
    public static func current() -> MemoryUsage {
        #if os(Linux)
        guard let status = SystemInfo.readText("/proc/self/status") else { return MemoryUsage(residentBytes: 0, peakResidentBytes: 0) }
        return parseProcStatus(status)
        #elseif canImport(Darwin)
        var info = task_vm_info_data_t()
        var count = mach_msg_type_number_t(MemoryLayout<task_vm_info_data_t>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) {
            $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(TASK_VM_INFO), $0, &count)
            }
        }
        guard result == KERN_SUCCESS else { return MemoryUsage(residentBytes: 0, peakResidentBytes: 0) }
        return MemoryUsage(residentBytes: Int(info.phys_footprint), peakResidentBytes: Int(info.ledger_phys_footprint_peak))
        #else
        return MemoryUsage(residentBytes: 0, peakResidentBytes: 0)
        #endif
    }

    /// `VmRSS` and `VmHWM` from `/proc/self/status`, whose sizes are in kB.
    static func parseProcStatus(_ text: String) -> MemoryUsage {
        func kilobytes(_ key: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return 0 }
            let number = line.dropFirst(key.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
            return (number ?? 0) * 1024
        }
        let resident = kilobytes("VmRSS")
        return MemoryUsage(residentBytes: resident, peakResidentBytes: max(kilobytes("VmHWM"), resident))
    }
}
