import CCurl
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The thread that drives one libcurl multi handle: it starts submitted exchanges, runs
/// the transfers, ends the ones that finish, are cancelled or sit idle too long, and waits
/// in `curl_multi_poll` between events. Other threads only hand it work through `inbox`
/// and wake it with `curl_multi_wakeup` (the one multi call that is safe from any thread).
final class CurlEngine: @unchecked Sendable {
    // @unchecked: `multi` and `running` are touched only on the engine's thread (and by
    // init before it starts); the rest is the Mutex and the semaphore.
    private let multi: UnsafeMutableRawPointer
    private let inbox = Locked(Inbox())
    private var running: [UnsafeMutableRawPointer: CurlExchange] = [:]
    private let finished = DispatchSemaphore(value: 0)
    /// The process the thread runs in (``ProcessFork/generation`` at start).
    private let generation = ProcessFork.generation

    private struct Inbox {
        var submitted: [CurlExchange] = []
        var cancelled: [CurlExchange] = []
        var stopping = false
    }

    /// The most the thread sleeps in `curl_multi_poll` when nothing is due sooner.
    private static let longestPoll: Int32 = 1000

    /// Loads libcurl if no engine has yet, and starts the thread.
    ///
    /// - Throws: ``CatFactsError/network(_:url:)`` naming `url` when libcurl cannot be
    ///   loaded (the offline fallback still answers then); ``CatFactsError/internal(_:)``
    ///   when it cannot make a multi handle.
    /// `maxConnections` bounds the connections to each host (the transfers beyond wait in
    /// libcurl's queue); the pool of idle ones libcurl keeps for reuse grows with the
    /// transfers added, so it never caps them lower.
    init(for url: String, maxConnections: Int) throws(CatFactsError) {
        var why: UnsafePointer<CChar>?
        guard catfacts_curl_load(&why) == 0 else {
            throw .network("HTTP is unavailable: \(why.map { String(cString: $0) } ?? "libcurl could not be loaded")", url: url)
        }
        guard let multi = catfacts_curl_multi_init() else { throw .internal("libcurl could not create a multi handle") }
        self.multi = multi
        _ = catfacts_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxConnections)
        // The engine's thread holds it until `run` returns.
        let failed = DetachedThread.start(stackSize: 1 << 20) { [self] in run() }
        guard failed == 0 else {
            catfacts_curl_multi_cleanup(multi)
            throw .internal("cannot start the HTTP thread: \(String(cString: strerror(failed)))")
        }
    }

    /// Whether the thread runs in this process: in a child of `fork()` it stayed in the parent,
    /// and the engine must be left alone (never stopped: that would wait for the thread
    /// forever) and a new one made.
    var isInThisProcess: Bool { generation == ProcessFork.generation }

    /// Queues `exchange` to be started on the engine's thread.
    func submit(_ exchange: CurlExchange) {
        inbox.withLock { $0.submitted.append(exchange) }
        catfacts_curl_multi_wakeup(multi)
    }

    /// Cancels `exchange`: it ends with ``CatFactsError/cancelled`` unless it already ended.
    func cancel(_ exchange: CurlExchange) {
        exchange.requestCancel()
        inbox.withLock { $0.cancelled.append(exchange) }
        catfacts_curl_multi_wakeup(multi)
    }

    /// Ends every exchange under way (as cancelled) and the thread, and waits for it.
    func stop() {
        inbox.withLock { $0.stopping = true }
        catfacts_curl_multi_wakeup(multi)
        finished.wait()
    }

    private func run() {
        while true {
            let work = inbox.withLock { inbox in
                defer { inbox.submitted = []; inbox.cancelled = [] }
                return inbox
            }
            for exchange in work.submitted { start(exchange) }
            for exchange in work.cancelled { end(exchange, with: .failure(.cancelled)) }
            if work.stopping {
                for exchange in Array(running.values) { end(exchange, with: .failure(.cancelled)) }
                break
            }
            var active: Int32 = 0
            _ = catfacts_curl_multi_perform(multi, &active)
            collectFinished()
            let wait = endIdleExchanges()
            _ = catfacts_curl_multi_poll(multi, wait)
        }
        catfacts_curl_multi_cleanup(multi)
        finished.signal()
    }

    private func start(_ exchange: CurlExchange) {
        switch exchange.makeHandle() {
        case .success(let handle):
            let added = catfacts_curl_multi_add_handle(multi, handle)
            guard added == CURLM_OK else {
                exchange.finish(.failure(.internal("libcurl refused a transfer (curl_multi_add_handle: \(added.rawValue))")))
                return
            }
            running[handle] = exchange
        case .failure(let error):
            exchange.finish(.failure(error))
        }
    }

    /// Ends the transfers libcurl reports done.
    private func collectFinished() {
        var queued: Int32 = 0
        while let message = catfacts_curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                  let exchange = running[handle] else { continue }
            let code = message.pointee.data.result
            end(exchange, with: exchange.outcome(code))
        }
    }

    /// Ends the exchanges that have received nothing for longer than their idle limit;
    /// the milliseconds until the next one could be due (at most ``longestPoll``).
    private func endIdleExchanges() -> Int32 {
        let now = ContinuousClock.now
        var wait = Duration.milliseconds(Int(Self.longestPoll))
        for exchange in Array(running.values) {
            let left = exchange.idleDeadline - now
            if left <= .zero {
                end(exchange, with: .failure(.timeout(seconds: exchange.limits.connectTimeout.seconds, url: exchange.shownURL)))
            } else {
                wait = min(wait, left)
            }
        }
        let milliseconds = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
        return Int32(max(1, milliseconds + 1))
    }

    /// Takes `exchange`'s transfer out of the multi handle (if it is there), frees it, and
    /// resumes its caller with `result` (if it is still waiting).
    private func end(_ exchange: CurlExchange, with result: Result<HTTPResponse, CatFactsError>) {
        if let handle = exchange.handle, running.removeValue(forKey: handle) != nil {
            _ = catfacts_curl_multi_remove_handle(multi, handle)
        }
        exchange.finish(result)
    }
}
