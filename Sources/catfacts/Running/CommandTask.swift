import CatFactsKit

/// Runs a command as a Swift task while the main thread waits on the signal pipe: Ctrl-C
/// cancels the task (and so the request under way), not the shell; a resize is noted for
/// the views that redraw in place.
enum CommandTask {
    /// How a run ended.
    struct Outcome {
        /// What the work returned (`false` when cancelled before it could say).
        var succeeded: Bool
        /// Ctrl-C was pressed while it ran.
        var interrupted: Bool
    }

    /// Runs `work` to its end (a cancelled command still ends, promptly) and says how it went.
    static func run(_ work: @escaping @Sendable () async -> Bool) -> Outcome {
        let result = ResultBox()
        let task = Task {
            result.set(await work())
            SignalPipe.post(.commandDone)
        }
        var interrupted = false
        while true {
            for event in SignalPipe.wait(orReadable: -1) {
                switch event {
                case .interrupt:
                    interrupted = true
                    task.cancel()
                case .resize:
                    ResizeSignal.note()
                case .commandDone:
                    if let succeeded = result.value { return Outcome(succeeded: succeeded, interrupted: interrupted) }
                }
            }
        }
    }
}

/// The result a command's task hands to the waiting main thread.
private final class ResultBox: Sendable {
    private let stored = Locked<Bool?>(nil)
    func set(_ value: Bool) { stored.withLock { $0 = value } }
    var value: Bool? { stored.withLock { $0 } }
}
