import CatFactsKit
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A spinner on stderr saying what the shell waits for (`⠋ GET /breeds?page=2&limit=10 …`),
/// drawn only on a terminal, only once a wait has lasted long enough to notice, and
/// cleared before anything else is printed.
final class Spinner: Sendable {
    private struct State {
        var timer: (any DispatchSourceTimer)?
        var started = ContinuousClock.now
        var frame = 0
        var drawn = false
    }

    private static let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    /// Answers quicker than this never show a spinner: it would only flicker.
    private static let delay = Duration.milliseconds(120)

    private let enabled: Bool
    private let style: Style
    private let environment: [String: String]
    private let waitingFor: @Sendable () -> String?
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "catfacts.spinner")

    /// A spinner that names what `waitingFor` says (nothing is drawn while it says `nil`);
    /// `enabled` only when stderr is a terminal.
    init(enabled: Bool, style: Style, environment: [String: String], waitingFor: @escaping @Sendable () -> String?) {
        self.enabled = enabled
        self.style = style
        self.environment = environment
        self.waitingFor = waitingFor
    }

    /// A spinner dropped while it runs stops its timer, which holds it weakly and would
    /// otherwise fire every 80 ms for nothing for the rest of the process.
    deinit {
        state.withLock { $0.timer }?.cancel()
    }

    /// Starts watching (a request is about to go out).
    func start() {
        guard enabled else { return }
        let previous = state.withLock { state in
            let previous = state.timer
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .milliseconds(40), repeating: .milliseconds(80))
            timer.setEventHandler { [weak self] in self?.tick() }
            timer.resume()
            state.timer = timer
            state.started = .now
            return previous
        }
        previous?.cancel()
    }

    /// Stops and clears the line; when it returns, the spinner is off the screen.
    func stop() {
        guard enabled else { return }
        let timer = state.withLock { state in
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
        // On the timer's queue, so no tick can draw after the line is cleared.
        queue.sync { self.clear() }
    }

    private func tick() {
        let (frame, due, running) = state.withLock { state in
            state.frame = (state.frame + 1) % Self.frames.count
            return (Self.frames[state.frame], ContinuousClock.now - state.started >= Self.delay, state.timer != nil)
        }
        guard running, due, let label = waitingFor() else { return clear() }
        let width = TerminalSize.current(of: STDERR_FILENO, environment: environment).columns - 1
        let text = DisplayWidth.truncate("\(frame) \(label)", to: width)
        Self.write(TerminalCodes.clearLine + style.cyan(text))
        state.withLock { $0.drawn = true }
    }

    private func clear() {
        let drawn = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if drawn { Self.write(TerminalCodes.clearLine) }
    }

    private static func write(_ text: String) {
        Descriptor.writeAll(text, to: STDERR_FILENO)
    }
}
