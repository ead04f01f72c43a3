#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The self-pipe the shell's signal handlers write to, and that the main thread polls along
/// with its input. A plain global constant (two descriptors, no reference counting), made
/// before any handler is installed: all a handler does with it is `write(2)`, which is
/// async-signal-safe.
private let signalPipe: (read: Int32, write: Int32) = {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return (-1, -1) }
    for descriptor in descriptors {
        // Non-blocking both ways: a handler must never block on a full pipe, and draining
        // stops when it is empty.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    return (descriptors[0], descriptors[1])
}()

/// What woke the main thread.
enum ShellEvent: UInt8, Sendable {
    /// Ctrl-C (SIGINT).
    case interrupt = 2
    /// The terminal was resized (SIGWINCH).
    case resize = 28
    /// The running command finished (written by the command's task, not a signal).
    case commandDone = 255
}

/// SIGINT and SIGWINCH as bytes in a pipe, so that the shell handles them on its main
/// thread, outside signal context: cancelling the request under way, clearing the line
/// being edited, re-fitting the screen.
enum SignalPipe {
    /// Installs the handlers. `false` when the pipe could not be made (out of descriptors);
    /// the signals then keep their default actions.
    static func install() -> Bool {
        guard signalPipe.read >= 0 else { return false }
        let handler: @convention(c) (Int32) -> Void = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            let saved = errno
            _ = write(signalPipe.write, &byte, 1)
            errno = saved
        }
        for number in [SIGINT, SIGWINCH] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
            #else
            action.__sigaction_u.__sa_handler = handler
            #endif
            sigemptyset(&action.sa_mask)
            // No SA_RESTART: a blocking wait should wake up and look at the pipe.
            action.sa_flags = 0
            sigaction(number, &action, nil)
        }
        return true
    }

    /// The descriptor to poll for readability.
    static var descriptor: Int32 { signalPipe.read }

    /// Tells the main thread that the running command is done.
    static func post(_ event: ShellEvent) {
        var byte = event.rawValue
        _ = write(signalPipe.write, &byte, 1)
    }

    /// The events waiting in the pipe, oldest first (empty when none).
    static func drain() -> [ShellEvent] {
        var events: [ShellEvent] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(signalPipe.read, &buffer, buffer.count)
            guard count > 0 else { break }
            events += buffer.prefix(count).compactMap(ShellEvent.init(rawValue:))
        }
        return events
    }

    /// Waits until `descriptor` is readable or an event arrives; returns the events (empty
    /// when only `descriptor` woke it). A negative `descriptor` waits for events alone.
    static func wait(orReadable descriptor: Int32) -> [ShellEvent] {
        while true {
            var fds = [pollfd(fd: signalPipe.read, events: Int16(POLLIN), revents: 0)]
            if descriptor >= 0 { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return []
            }
            if fds[0].revents != 0 {
                let events = drain()
                if !events.isEmpty { return events }
            }
            if fds.count > 1, fds[1].revents != 0 { return [] }
        }
    }
}
