import CCommandLine

/// The arguments an executable (the shell, the mock) was started with, after the program's name.
///
/// Swift's `CommandLine.arguments` reads `/proc/self/cmdline` on Linux: where `/proc` is not
/// mounted (a chroot, a build sandbox) it is empty, and ArgumentParser would run the program as
/// if given none (`catfacts --version` printing nothing and exiting 0). main's own `argv`,
/// kept by CCommandLine, comes first; `CommandLine` where the C library does not pass it.
public enum ProgramArguments {
    /// The arguments after the program's name; `nil` when neither source has even the name,
    /// which only a missing `/proc` without glibc causes.
    public static func read() -> [String]? {
        var count: Int32 = 0
        if let arguments = catfacts_command_line(&count), count > 0 {
            return (1..<Int(count)).map { arguments[$0].map { String(cString: $0) } ?? "" }
        }
        let fallback = CommandLine.arguments
        return fallback.isEmpty ? nil : Array(fallback.dropFirst())
    }

    /// What a program says when ``read()`` is `nil`.
    public static let unreadable = "cannot read its own command line: /proc is not mounted (/proc/self/cmdline); mount proc on /proc"
}
