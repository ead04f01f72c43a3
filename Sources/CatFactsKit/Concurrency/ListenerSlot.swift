/// Holds a listener that library threads call, and lets its owner remove it for good:
/// ``clear()`` returns only once no other thread is still inside a call, so a C caller may
/// free the listener's context right after closing the list or client.
///
/// `@unchecked Sendable`: `listener` and `callers` are only touched with `condition` held.
final class ListenerSlot<Event>: @unchecked Sendable {
    typealias Listener = @Sendable (Event) -> Void

    private let condition = Condition()
    private var listener: Listener?
    /// Calls under way, by thread (a listener may cause a nested call on its own thread).
    private var callers: [UInt: Int] = [:]

    /// Replaces the listener; a call of the previous one under way elsewhere may finish later.
    func set(_ newListener: Listener?) {
        condition.lock()
        listener = newListener
        condition.unlock()
    }

    /// Removes the listener and waits for calls under way on other threads to return. Calls
    /// on the calling thread itself (a listener clearing its own slot) are not waited for.
    func clear() {
        let me = Self.currentThread
        condition.lock()
        listener = nil
        while callers.keys.contains(where: { $0 != me }) { condition.wait() }
        condition.unlock()
    }

    /// Calls the listener with each event, as long as there is one: the slot is read again
    /// before each, so a listener that clears its own slot (closing its list) hears no more
    /// of the batch, and nothing is delivered after ``clear()`` returned on another thread.
    func call(_ events: [Event]) {
        guard !events.isEmpty else { return }
        // Listeners run on library threads (the header): never at the start of a blocking
        // call, on its caller's thread (`CallerThread.leave()`). Checked in debug builds.
        assert(!CallerThread.isCurrent, "a listener called on a caller's thread")
        let me = Self.currentThread
        condition.lock()
        callers[me, default: 0] += 1
        for event in events {
            guard let listener else { break }
            condition.unlock()
            listener(event)
            condition.lock()
        }
        let left = (callers[me] ?? 1) - 1
        callers[me] = left > 0 ? left : nil
        condition.broadcast()
        condition.unlock()
    }

    private static var currentThread: UInt { pthread_self_pointer() }
}

#if canImport(Glibc)
import Glibc
private func pthread_self_pointer() -> UInt { UInt(pthread_self()) }
#elseif canImport(Darwin)
import Darwin
private func pthread_self_pointer() -> UInt { UInt(bitPattern: pthread_self()) }
#endif
