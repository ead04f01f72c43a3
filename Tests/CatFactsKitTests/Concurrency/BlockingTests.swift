@testable import CatFactsKit
import CatFactsMock
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Blocking calls: a ready answer on the caller's thread, listeners never there")
struct BlockingTests {
    /// `body`'s value, run on a thread of its own: `Blocking.run` must not be called from a
    /// pool thread, and a C caller's thread is not one.
    private static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// Many times over: a single yield sometimes went on on the caller's thread (its
    /// continuation resumed before the task had finished suspending).
    @Test func aTaskStartedHereRunsHereUntilItLeavesThenOnThePool() async {
        let outcomes = await Self.onOwnThread { () -> [Bool] in
            let caller = pthread_self()
            return (0..<500).flatMap { _ in
                Blocking.run(cancellableBy: nil, startingHere: true) { () async -> [Bool] in
                    let startedHere = pthread_equal(caller, pthread_self()) != 0 && Blocking.onCallerThread
                    await Blocking.leaveCallerThread()
                    return [startedHere, pthread_equal(caller, pthread_self()) == 0 && !Blocking.onCallerThread]
                }
            }
        }
        #expect(outcomes.count == 1000 && outcomes.allSatisfy { $0 })
        #expect(!Blocking.onCallerThread)
    }

    @Test func anInterruptWhileTheTaskRunsHereCancelsItOnceItSuspends() async {
        let calls = CallsInProgress()
        let cancelled = await Self.onOwnThread {
            Blocking.run(cancellableBy: calls, startingHere: true) { () async -> Bool in
                calls.interrupt()
                // The watcher thread cancels what is registered: this call already is, though
                // its task is not attached until it suspends.
                let deadline = ContinuousClock.now + hangBound
                while !Task.isCancelled, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
                return Task.isCancelled
            }
        }
        #expect(cancelled)
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
                    Blocking.run(cancellableBy: nil, startingHere: true) { () async -> Bool in
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
