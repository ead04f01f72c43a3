import Synchronization

/// What one call did on the network, for the fields of its error: the client counts each
/// request it sends into the report bound to the task (``current``). The C face binds one
/// around every blocking call and reads it for `cf_last_error_attempts`.
package final class CallReport: Sendable {
    private let sent = Atomic<Int>(0)

    package init() {}

    /// Requests sent so far (first attempts and retries).
    package var attempts: Int { sent.load(ordering: .relaxed) }

    func countAttempt() {
        sent.add(1, ordering: .relaxed)
    }

    /// The report of the call this task is making, if its caller asked for one.
    @TaskLocal package static var current: CallReport?
}
