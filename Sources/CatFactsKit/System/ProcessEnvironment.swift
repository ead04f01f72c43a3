import CProcess
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables and name, read from the C library (what
/// Foundation's `ProcessInfo` would give, without linking Foundation; see ``Timestamp``).
package enum ProcessEnvironment {
    /// Every `NAME=value` of the environment now. A variable without `=` is skipped; of two
    /// of one name, the first (as `getenv` finds it).
    package static func current() -> [String: String] {
        var variables: [String: String] = [:]
        guard var entry = catfacts_environment() else { return variables }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }

    /// The program's name, as it was started (the last part of `argv[0]`): `python3`,
    /// `catfacts`; empty when unknown. Read without `/proc`.
    package static var programName: String {
        String(cString: catfacts_program_name())
    }

    /// The CPUs this process may run on (its affinity mask), else those online; at least 1.
    package static var activeProcessorCount: Int {
        let count = Int(catfacts_affinity_cpu_count())
        return count > 0 ? count : max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
