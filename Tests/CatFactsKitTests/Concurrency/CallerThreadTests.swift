@testable import CatFactsKit
import CatFactsMock
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("The caller's thread: a ready answer stays on it, listeners never run there")
struct CallerThreadTests {
    /// `body`'s value, run on a thread of its own: a blocking wait must not be made on a pool
    /// thread, and a C caller's thread is not one.
    private static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// `body` started as the C face starts a blocking call: a task begun on the current
    /// thread, marked (``CallerThread/marking(_:)``), and waited for there.
    private static func startedHere<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<T?>(nil)
        CallerThread.marking {
            _ = Task.immediateDetached {
                let value = await body()
                result.withLock { $0 = value }
                done.signal()
            }
        }
        done.wait()
        guard let value = result.withLock({ $0.take() }) else { fatalError("the task ended without a value") }
        return value
    }

    @Test func theMarkHoldsInsideMarkingOnly() async {
        let seen = await Self.onOwnThread { () -> [Bool] in
            let before = CallerThread.isCurrent
            let inside = CallerThread.marking { CallerThread.isCurrent }
            return [before, inside, CallerThread.isCurrent]
        }
        #expect(seen == [false, true, false])
        #expect(!CallerThread.isCurrent)
    }

    /// Many times over: a single yield sometimes went on on the caller's thread (its
    /// continuation resumed before the task had finished suspending).
    @Test func aTaskStartedHereRunsHereUntilItLeavesThenOnThePool() async {
        let outcomes = await Self.onOwnThread { () -> [Bool] in
            let caller = pthread_self()
            return (0..<500).flatMap { _ in
                Self.startedHere { () async -> [Bool] in
                    let startedHere = pthread_equal(caller, pthread_self()) != 0 && CallerThread.isCurrent
                    await CallerThread.leave()
                    return [startedHere, pthread_equal(caller, pthread_self()) == 0 && !CallerThread.isCurrent]
                }
            }
        }
        #expect(outcomes.count == 1000 && outcomes.allSatisfy { $0 })
        #expect(!CallerThread.isCurrent)
    }

    @Test func requestListenersNeverRunOnTheCallersThreadAndACachedAnswerStaysOnIt() async throws {
        try await withMock { client, _ in
            let caller = Locked<pthread_t?>(nil)
            let onCaller = Locked<[Bool]>([])
            client.setActivityListener { _ in
                let here = pthread_self()
                onCaller.withLock { $0.append(caller.withLock { $0.map { pthread_equal($0, here) != 0 } } ?? false) }
            }
            let stayed = await Self.onOwnThread { () -> [Bool] in
                caller.withLock { $0 = pthread_self() }
                return (0..<2).map { _ in
                    Self.startedHere { () async -> Bool in
                        let start = pthread_self()
                        _ = try? await client.breeds(page: 1, limit: 2)
                        return pthread_equal(start, pthread_self()) != 0
                    }
                }
            }
            // One request (began, ended), both heard on a library thread; the second call is
            // a cache hit, answered without leaving the caller's thread.
            #expect(onCaller.withLock { $0 } == [false, false])
            #expect(stayed == [false, true])
        }
    }
}
