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

    /// An item whose page is still loading.
    struct Pending {
        let index: Int64
    }

    static func client(_ pointer: OpaquePointer?) throws(CatFactsError) -> CatFactsClient {
        try Handle.require(pointer, as: ClientHandle.self, what: "the client", kind: "cf_client").client
    }

    static func list(_ pointer: OpaquePointer?) throws(CatFactsError) -> ListHandle {
        try Handle.require(pointer, as: ListHandle.self, what: "the list", kind: "cf_list")
    }

    /// A C `int64_t` as a Swift `Int` (the same width on every platform the library builds for).
    static func int(_ value: Int64) -> Int { Int(truncatingIfNeeded: value) }
}
