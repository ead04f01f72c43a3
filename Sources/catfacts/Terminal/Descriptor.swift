#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to a file descriptor. The shell writes stdout and stderr through here
/// only (never through `print` and C's buffered `stdout`), so what it prints and what
/// readline draws reach the terminal in the order they were written.
enum Descriptor {
    /// Writes all of `text` to `descriptor`, retrying after interruptions; gives up
    /// silently when the other end is gone.
    static func writeAll(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }
}
