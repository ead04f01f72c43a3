import CCommandLine

/// The arguments the mock was started with, after the program's name: main's own `argv`
/// (CCommandLine), which is there without `/proc`, where Swift's `CommandLine.arguments`
/// (read from `/proc/self/cmdline` on Linux) is empty; `CommandLine` where the C library does
/// not pass it. `nil` when neither has even the program's name.
enum ProgramArguments {
    static func read() -> [String]? {
        var count: Int32 = 0
        if let arguments = catfacts_command_line(&count), count > 0 {
            return (1..<Int(count)).map { arguments[$0].map { String(cString: $0) } ?? "" }
        }
        let fallback = CommandLine.arguments
        return fallback.isEmpty ? nil : Array(fallback.dropFirst())
    }
}
