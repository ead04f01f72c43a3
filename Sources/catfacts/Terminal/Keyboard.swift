import CatFactsKit
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Single key presses from the terminal, for "any key continues" (`scroll`) and "any key
/// stops" (`metrics --watch`): no Enter needed, nothing echoed, Ctrl-C still a SIGINT.
enum Keyboard {
    /// What a key wait ended with.
    enum Outcome: Equatable {
        /// A key; the first byte of what it sent (arrows send several).
        case key(UInt8)
        /// The time ran out, or `wake` asked to stop waiting.
        case timeout
        /// The task was cancelled (Ctrl-C).
        case cancelled
        /// The input ended or cannot be read.
        case closed
    }

    /// Runs `body` with the terminal in non-canonical, no-echo mode, then restores it.
    static func withKeys<T>(isolation: isolated (any Actor)? = #isolation,
                            _ body: () async throws(ShellError) -> T) async throws(ShellError) -> T {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return try await body() }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        return try await body()
    }

    /// Waits for a key for at most `timeout`, or until `wake` returns true (checked every
    /// 50 ms), or until the task is cancelled.
    ///
    /// The blocking `poll(2)` runs on a Dispatch thread, not on the concurrency pool.
    static func next(timeout: Duration, wake: @escaping @Sendable () -> Bool = { false }) async -> Outcome {
        switch await nextInput(timeout: timeout, wake: wake) {
        case .bytes(let bytes): .key(bytes[0])
        case .timeout: .timeout
        case .cancelled: .cancelled
        case .closed: .closed
        }
    }

    /// What a wait for input ended with, keeping every byte read (for ``KeyPress/parse(_:)``).
    enum Input: Equatable {
        /// What one read gave: one key, or several typed fast.
        case bytes([UInt8])
        case timeout
        case cancelled
        case closed
    }

    /// Waits as ``next(timeout:wake:)`` does, and returns all the bytes read.
    static func nextInput(timeout: Duration, wake: @escaping @Sendable () -> Bool = { false }) async -> Input {
        let cancelled = Latch()
        let deadline = ContinuousClock.now + timeout
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Input, Never>) in
                DispatchQueue.global().async {
                    continuation.resume(returning: waitForInput(until: deadline, cancelled: cancelled, wake: wake))
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    private static func waitForInput(until deadline: ContinuousClock.Instant, cancelled: Latch,
                                     wake: @Sendable () -> Bool) -> Input {
        while true {
            if cancelled.isSet { return .cancelled }
            if wake() { return .timeout }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return .timeout }
            var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let slice = Int32(min(50, max(1, left.milliseconds)))
            let ready = poll(&fd, 1, slice)
            if ready < 0, errno != EINTR { return .closed }
            guard ready > 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(STDIN_FILENO, &bytes, bytes.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            return count > 0 ? .bytes(Array(bytes.prefix(count))) : .closed
        }
    }
}
