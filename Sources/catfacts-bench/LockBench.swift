import ArgumentParser
import CatFactsKit
import Dispatch
import Foundation
import Synchronization

/// The cost of the project's lock (``Locked``, on `pthread_mutex_t`, which ThreadSanitizer
/// can follow) against the standard library's `Mutex` (a futex it cannot), in the same run:
/// ns per `withLock` that increments a counter, uncontended on one thread and contended by
/// two threads at once.
struct LockBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locks", abstract: "ns per withLock: Locked (pthread) against Mutex (futex).")

    @Option(help: "withLock calls per measurement and thread.") var calls = 10_000_000

    func run() {
        let mutex = Mutex(0)
        let locked = Locked(0)
        let n = calls
        func nanoseconds(_ threads: Int, _ body: @escaping @Sendable () -> Void) -> Double {
            let start = ContinuousClock.now
            DispatchQueue.concurrentPerform(iterations: threads) { _ in body() }
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        }
        // `Mutex` is not Copyable: the closures borrow it through a pointer-free wrapper.
        let box = MutexBox(mutex: mutex)
        var figures: [String: Double] = [:]
        for threads in [1, 2] {
            let total = Double(n * threads)
            let mutexNs = nanoseconds(threads) { for _ in 0..<n { box.mutex.withLock { $0 &+= 1 } } } / total
            let lockedNs = nanoseconds(threads) { for _ in 0..<n { locked.withLock { $0 &+= 1 } } } / total
            figures["mutex_ns_\(threads)_threads"] = mutexNs
            figures["locked_ns_\(threads)_threads"] = lockedNs
        }
        guard box.mutex.withLock({ $0 }) == 3 * n, locked.withLock({ $0 }) == 3 * n else {
            fatalError("locks: a lock lost an increment")
        }
        report(figures)
    }
}

/// Holds a `Mutex` in a class, so `@Sendable` closures can share it.
private final class MutexBox: Sendable {
    let mutex: Mutex<Int>
    init(mutex: consuming Mutex<Int>) { self.mutex = mutex }
}
