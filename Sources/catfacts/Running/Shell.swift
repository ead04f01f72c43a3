import CatFactsKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two ways the shell runs: interactive at a prompt, or through a script (`-c`, a file,
/// or a non-terminal stdin). Either way it runs on the main thread, one command at a time,
/// each as a task (see ``CommandTask``).
struct Shell {
    let session: Session
    /// Stop a script at its first failed command (`-bail`), as sqlite3 does.
    var bail = false

    /// How a script ended, as an exit status.
    enum ExitStatus: Int32 {
        case success = 0
        /// A command failed (the script went on, unless `-bail`).
        case commandFailed = 1
        /// A usage error: a wrong flag or value, a script or `-o` file that cannot be used.
        case usage = 2
        /// Every command succeeded, but an answer came from the bundled offline catalog
        /// because the server could not be reached (never with `--offline`, which asks for it).
        case offlineCatalog = 3
        /// Ctrl-C stopped the script.
        case interrupted = 130
    }

    /// Runs `invocations` in order, going on after failures, stopping at `quit` or Ctrl-C.
    /// `failed` is set when one fails.
    private func run(_ invocations: [Invocation], failed: inout Bool) -> (quit: Bool, interrupted: Bool) {
        for invocation in invocations {
            let outcome = CommandTask.run { [session] in await session.execute(invocation) }
            if !outcome.succeeded { failed = true }
            if outcome.interrupted { return (false, true) }
            if failed, bail { return (true, false) }
            if session.quitRequested.isSet { return (true, false) }
        }
        return (false, false)
    }

    /// Runs the commands in `text` (`-c`, or a script file's contents).
    func runScript(_ text: String) -> ExitStatus {
        var failed = false
        let end = run(ScriptText.invocations(in: text), failed: &failed)
        if end.interrupted { return .interrupted }
        return status(failed: failed)
    }

    /// The exit status of a script that ran to its end (or to `quit`, or `-bail`).
    private func status(failed: Bool) -> ExitStatus {
        if failed { return .commandFailed }
        return session.answeredFromCatalog.isSet ? .offlineCatalog : .success
    }

    /// Runs the commands read from a non-terminal stdin, line by line as they arrive.
    func runStandardInput() -> ExitStatus {
        var failed = false
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var atEnd = false
        while !atEnd {
            let events = SignalPipe.wait(orReadable: STDIN_FILENO)
            if events.contains(.interrupt) { return .interrupted }
            if events.contains(.resize) { ResizeSignal.note() }
            guard events.isEmpty else { continue }
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 {
                atEnd = true
            } else {
                pending += buffer.prefix(count)
            }
            // Whole lines only, so a command is never cut where a read happened to end.
            let cut = atEnd ? pending.endIndex : (pending.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
            guard cut > 0 else { continue }
            let text = String(decoding: pending[..<cut], as: UTF8.self)
            pending.removeFirst(cut)
            let end = run(ScriptText.invocations(in: text), failed: &failed)
            if end.interrupted { return .interrupted }
            if end.quit { break }
        }
        return status(failed: failed)
    }

    /// Reads and runs commands at the prompt until `quit` or Ctrl-D.
    func runInteractive(editor: LineEditor) {
        var restoring: String?
        while true {
            let line: String
            switch editor.read(restoring: restoring.take()) {
            case .endOfInput: return
            case .line(let entered): line = entered
            case .liveSearch(let aside):
                let left = CommandTask.run { [session] in await LiveSearchScreen.runFromPrompt(in: session) }
                if left.succeeded, !left.interrupted {
                    // Back to the prompt line, redrawn in place with the text set aside.
                    Descriptor.writeAll(TerminalCodes.up(1) + TerminalCodes.clearBelow, to: STDOUT_FILENO)
                }
                restoring = aside
                continue
            }
            let invocations = ScriptText.invocations(in: line)
            guard !invocations.isEmpty else { continue }
            editor.remember(line)
            var failed = false
            if run(invocations, failed: &failed).quit { return }
        }
    }
}
