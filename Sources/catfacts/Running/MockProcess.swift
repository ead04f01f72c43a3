import CatFactsKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `catfacts --mock`: the `catfacts-mock` program, started as a child on a free loopback
/// port. A separate process, so that the shell carries no HTTP server (Hummingbird and
/// SwiftNIO were most of its size). The child's standard input is a pipe the shell holds
/// open: when the shell exits, however it exits, the pipe closes and the mock stops
/// (`--stop-at-end-of-input`).
final class MockProcess {
    /// What went wrong starting it, said as one sentence the shell prints.
    struct StartError: Error, CustomStringConvertible {
        let description: String
        /// The mock started and gave its own reason (which says what to do), as opposed
        /// to not starting at all.
        var saidByMock = false
    }

    /// `http://127.0.0.1:PORT`, from the mock's first line.
    let baseURL: String
    private let pid: pid_t
    private let input: Int32

    private init(baseURL: String, pid: pid_t, input: Int32) {
        self.baseURL = baseURL
        self.pid = pid
        self.input = input
    }

    /// Where the mock program is: `$CATFACTS_MOCK`, else beside this executable (as `make
    /// install` puts them), else the first `catfacts-mock` on `PATH`.
    static func locate(environment: [String: String]) -> String? {
        if let configured = environment["CATFACTS_MOCK"], !configured.isEmpty { return configured }
        var candidates: [String] = []
        if let executable = ownExecutable(), let slash = executable.lastIndex(of: "/") {
            candidates.append(String(executable[..<slash]) + "/catfacts-mock")
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            candidates.append("\(folder)/catfacts-mock")
        }
        return candidates.first { access($0, X_OK) == 0 }
    }

    /// Starts the mock and waits (at most `timeoutMilliseconds`) for its `listening on URL`.
    static func start(environment: [String: String], timeoutMilliseconds: Int32 = 10_000) throws(StartError) -> MockProcess {
        guard let path = locate(environment: environment) else {
            throw StartError(description: "cannot find catfacts-mock beside catfacts or on PATH; install it (make install), or set CATFACTS_MOCK to its path")
        }
        var output: [Int32] = [-1, -1]
        var input: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw StartError(description: "cannot start \(path): \(errorText(errno))") }
        guard pipe(&input) == 0 else {
            close(output[0]); close(output[1])
            throw StartError(description: "cannot start \(path): \(errorText(errno))")
        }
        // The shell's ends must not leak into the child (or into later children).
        _ = fcntl(output[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)

        // Its stderr goes to a file of our own, unlinked at once: read when it fails to start
        // (its last line says why), never a pipe it could fill or lose later.
        let errors = Self.scratchFile()
        defer { if errors >= 0 { close(errors) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO)
        if errors >= 0 {
            posix_spawn_file_actions_adddup2(&actions, errors, STDERR_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        let arguments = [path, "--host", "127.0.0.1", "--port", "0", "--stop-at-end-of-input"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(output[0]); close(input[1])
            throw StartError(description: "cannot start \(path): \(errorText(spawned)); check that it is an executable catfacts-mock")
        }
        let first = readLine(output[0], timeoutMilliseconds: timeoutMilliseconds)
        close(output[0])
        let prefix = "listening on "
        if case .line(let line) = first, line.hasPrefix(prefix) {
            return MockProcess(baseURL: String(line.dropFirst(prefix.count)), pid: pid, input: input[1])
        }
        let status = MockProcess(baseURL: "", pid: pid, input: input[1]).stop().map { ", exit status \($0)" } ?? ""
        if let said = lastLine(of: errors) {
            // Its own sentence (`catfacts-mock: cannot listen on ...: the port is in use; ...`).
            let prefix = "catfacts-mock: "
            let reason = said.hasPrefix(prefix) ? String(said.dropFirst(prefix.count)) : said
            throw StartError(description: "catfacts-mock did not start: \(reason)", saidByMock: true)
        }
        let why = switch first {
        case .line(let line): "its first line was \"\(line)\", not \"listening on URL\"\(status)"
        case .ended: "it ended without saying where it listens\(status)"
        case .timedOut: "it said nothing for \(timeoutMilliseconds / 1000) s"
        }
        throw StartError(description: "\(path) did not start (\(why)); run it by hand to see why")
    }

    /// Stops the mock (end of input, then SIGTERM) and reaps it; its exit status if it exited.
    @discardableResult
    func stop() -> Int32? {
        close(input)
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import (they are macros).
        return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }

    private enum FirstLine {
        /// A line, without its newline.
        case line(String)
        /// End of output before a whole line.
        case ended
        case timedOut
    }

    /// The first line `descriptor` gives within the time.
    private static func readLine(_ descriptor: Int32, timeoutMilliseconds: Int32) -> FirstLine {
        var bytes: [UInt8] = []
        var deadline = timeoutMilliseconds
        while deadline > 0, bytes.count < 4096 {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let started = monotonicMilliseconds()
            let ready = poll(&poller, 1, deadline)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return .timedOut }
            var byte: UInt8 = 0
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return .ended }
            if byte == UInt8(ascii: "\n") { return .line(String(decoding: bytes, as: UTF8.self)) }
            bytes.append(byte)
            deadline -= Int32(clamping: monotonicMilliseconds() - started)
        }
        return deadline > 0 ? .line(String(decoding: bytes, as: UTF8.self)) : .timedOut
    }

    /// An unlinked temporary file open for reading and writing, or -1.
    private static func scratchFile() -> Int32 {
        var template = Array("/tmp/catfacts-mock-stderr-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return -1 }
        unlink(template)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// The last non-empty line written to `descriptor` (from its start, at most 4 KB).
    private static func lastLine(of descriptor: Int32) -> String? {
        guard descriptor >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).last.map { ControlEscapes.escaped(String($0)) }
    }

    private static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }

    private static func ownExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
