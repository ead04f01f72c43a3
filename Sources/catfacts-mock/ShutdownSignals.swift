import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The self-pipe SIGINT and SIGTERM write to. A plain global constant (two descriptors, no
/// reference counting), created before the handler is installed: all the handler does with it
/// is `write(2)`, which is async-signal-safe.
private let shutdownPipe: (read: Int32, write: Int32) = {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return (-1, -1) }
    return (descriptors[0], descriptors[1])
}()

/// Waits for SIGINT or SIGTERM, so the server can stop gracefully and the process exit 0.
///
/// The classic self-pipe: a C handler writes a byte, a thread blocked in `read(2)` wakes the
/// waiter. Whichever thread the kernel picks to take the signal, the byte lands in the pipe;
/// nothing depends on signal masks or on how Dispatch implements signal sources per platform.
enum ShutdownSignals {
    /// Installs the handlers; call it before starting anything that should be stopped cleanly.
    /// `false` when the pipe could not be made (out of descriptors).
    static func install() -> Bool {
        guard shutdownPipe.read >= 0 else { return false }
        for number in [SIGINT, SIGTERM] {
            _ = signal(number) { _ in
                var byte: UInt8 = 1
                _ = write(shutdownPipe.write, &byte, 1)
            }
        }
        return true
    }

    /// Makes the end of standard input stop the server as a signal would (after
    /// ``install()``). `false` when the thread that watches it cannot start.
    static func stopAtEndOfInput() -> Bool {
        guard shutdownPipe.write >= 0 else { return false }
        let watcher = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
            }
            var byte: UInt8 = 1
            _ = write(shutdownPipe.write, &byte, 1)
        }
        watcher.start()
        return true
    }

    /// Returns once either signal has arrived (after ``install()``).
    static func wait() async {
        guard shutdownPipe.read >= 0 else { return }
        let descriptor = shutdownPipe.read
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // A blocking read belongs on its own thread, not on the cooperative pool.
            Thread {
                var byte: UInt8 = 0
                while read(descriptor, &byte, 1) < 0, errno == EINTR {}
                continuation.resume()
            }.start()
        }
    }
}
