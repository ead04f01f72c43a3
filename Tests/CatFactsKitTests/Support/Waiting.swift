/// How long a test waits for something that must happen (a load, a probe, a cancellation):
/// only a hang reaches it, never a slow or loaded machine. Speed is `make bench`'s business.
let hangBound = Duration.seconds(60)

/// Polls `condition` every 10 ms until it holds or ``hangBound`` passes: loads, probes and
/// listeners settle on library threads.
func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + hangBound
    while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
}
