/// The loop of every screen that redraws in place (`metrics --watch`, `scroll`, live
/// search): draw, wait for a key, a change, a resize or the next tick, draw again, until
/// the screen says it is done. The keys are read one by one (see ``Keyboard/withKeys(isolation:_:)``,
/// which the caller enters).
enum RedrawLoop {
    /// What a wait ended with, other than a reason to draw again.
    enum Input: Equatable {
        /// What one read gave: one key, or several typed fast (see ``KeyPress/parse(_:)``).
        case keys([UInt8])
        /// The task was cancelled (Ctrl-C).
        case cancelled
        /// The input ended or cannot be read.
        case closed
    }

    /// Runs `draw`, then waits, until `draw` or `react` returns a result. A wait ends with
    /// input (handed to `react`), or, to draw again: after `interval` (never when `nil`),
    /// when `changes` returns another value than before the wait, or on a resize.
    static func run<Result>(isolation: isolated (any Actor)? = #isolation,
                            every interval: Duration? = nil,
                            changes: @escaping @Sendable () -> Int = { 0 },
                            draw: () throws(ShellError) -> Result?,
                            react: (Input) throws(ShellError) -> Result?) async throws(ShellError) -> Result {
        while true {
            if let result = try draw() { return result }
            let seen = changes()
            let resized = ResizeSignal.current
            // A day stands for "no tick": a wait still ends on a key, a change or a resize.
            let input = await Keyboard.nextInput(timeout: interval ?? .seconds(86_400)) {
                changes() != seen || ResizeSignal.current != resized
            }
            let event: Input
            switch input {
            case .timeout: continue
            case .bytes(let bytes): event = .keys(bytes)
            case .cancelled: event = .cancelled
            case .closed: event = .closed
            }
            if let result = try react(event) { return result }
        }
    }
}
