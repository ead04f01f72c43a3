import CatFactsKit
import CCatFactsHeader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shape of every fallible C entry point: clear the out-pointer, run, record the
/// thread's last error, return the status.
enum Call {
    /// Runs `body`, which produces the text for `out`; the text is the caller's to free.
    static func text(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, what: String,
                     _ body: () throws(CatFactsError) -> String) -> cf_status {
        ErrorFields.reset()
        out?.pointee = nil
        guard let out else { return LastError.fail(.argument("\(what) is NULL")) }
        do throws(CatFactsError) {
            let text = try body()
            guard let copy = ownedCString(text) else { return LastError.fail(.internal("out of memory")) }
            out.pointee = copy
            return LastError.succeed()
        } catch {
            return LastError.fail(error)
        }
    }

    /// Runs `body` for its status alone.
    static func status(_ body: () throws(CatFactsError) -> Void) -> cf_status {
        ErrorFields.reset()
        do throws(CatFactsError) {
            try body()
            return LastError.succeed()
        } catch {
            return LastError.fail(error)
        }
    }

    /// Runs `body`, which may also answer `CF_PENDING` (not a failure, but worth a message).
    static func itemStatus(_ body: () throws(CatFactsError) -> Pending?) -> cf_status {
        ErrorFields.reset()
        do throws(CatFactsError) {
            guard let pending = try body() else { return LastError.succeed() }
            LastError.set("item \(pending.index) is not loaded yet: its page is loading")
            return CF_PENDING
        } catch {
            return LastError.fail(error)
        }
    }

    /// ``itemStatus(_:)`` for a call that hands out through `out`, set to NULL first so that
    /// it is NULL on every failure.
    static func itemStatus<T>(clearing out: UnsafeMutablePointer<UnsafeMutablePointer<T>?>?,
                              _ body: () throws(CatFactsError) -> Pending?) -> cf_status {
        out?.pointee = nil
        return itemStatus(body)
    }

    /// An item whose page is still loading.
    struct Pending {
        let index: Int64
    }

    /// A one-shot call answered as JSON text for `out`: `prepare` reads the call's other
    /// arguments (so a bad one fails before anything is sent) and returns the request, which
    /// is made on the client `client` stands for and waited for on the caller's thread.
    static func json<Answer>(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ client: OpaquePointer?,
                             _ prepare: () throws(CatFactsError) -> @Sendable (CatFactsClient) async throws(CatFactsError) -> Answer)
        -> cf_status where Answer: Encodable & Sendable {
        text(out, what: "out_json") { () throws(CatFactsError) in
            let handle = try ClientHandle.handle(client)
            let request = try prepare()
            let client = handle.client
            return try blocking(on: handle) { () async throws(CatFactsError) in
                JSONOutput.string(try await request(client))
            }.get()
        }
    }

    /// A one-shot call answered as a block for `out` (a page of items): `fetch` made on the
    /// client `client` stands for and waited for on the caller's thread, its answer laid out
    /// by `layout`. A NULL `out` is an argument error naming `type`.
    static func pageBlock<Item, Block>(_ out: UnsafeMutablePointer<UnsafeMutablePointer<Block>?>?, _ client: OpaquePointer?,
                                       named type: String,
                                       _ fetch: @escaping @Sendable (CatFactsClient) async throws(CatFactsError) -> Page<Item>,
                                       layout: (Page<Item>) -> UnsafeMutablePointer<Block>) -> cf_status {
        out?.pointee = nil
        return status { () throws(CatFactsError) in
            let handle = try ClientHandle.handle(client)
            guard let out else { throw .argument("out (the \(type) ** to fill) is NULL") }
            let client = handle.client
            let answer = try blocking(on: handle) { () async throws(CatFactsError) in try await fetch(client) }.get()
            out.pointee = layout(answer)
        }
    }

    /// A C `int64_t` as a Swift `Int` (the same width on every platform the library builds for).
    static func int(_ value: Int64) -> Int { Int(truncatingIfNeeded: value) }
}
