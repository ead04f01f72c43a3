import CCurl
/// One signal's export requests: a POST of the body in the signal's encoding (gzip-compressed
/// when it says so) to the collector, run to its end on the exporter's thread with the handles
/// of an ``OTLPConnection`` (a multi handle, so it can be given up between polls). It takes no
/// connection of the client's engine, whose slots are the calls', and no proxy for a loopback
/// collector (``ProxyChoice``, the calls' rule).
struct OTLPPost: Sendable {
    let signal: SignalExport
    let proxy: ProxyChoice

    var url: String { signal.url }

    /// The request `message` in the signal's encoding: protobuf or JSON, and gzip when asked.
    func body(protobuf: () -> [UInt8], json: () -> String) -> (bytes: [UInt8], gzip: Bool) {
        let plain = signal.encoding == .protobuf ? protobuf() : Array(json().utf8)
        guard signal.gzip, let compressed = Gzip.compressed(plain) else { return (plain, false) }
        return (compressed, true)
    }

    /// Posts `body` (gzip-compressed when `gzip`) with `connection`'s handles; ends by
    /// `deadline`, or sooner when `giveUp` says so between polls. `nil` on a 2xx, else what
    /// went wrong.
    func send(_ body: (bytes: [UInt8], gzip: Bool), over connection: OTLPConnection, deadline: ContinuousClock.Instant,
              giveUp: () -> Bool) -> String? {
        let handles: (multi: UnsafeMutableRawPointer, handle: UnsafeMutableRawPointer)
        switch connection.handles() {
        case .success(let made): handles = made
        case .failure(let why): return why.message
        }
        let (multi, handle) = handles
        var list: UnsafeMutablePointer<curl_slist>?
        defer { catfacts_curl_slist_free_all(list) }
        for (name, value) in signal.headers { list = catfacts_curl_slist_append(list, "\(name): \(value)") }
        list = catfacts_curl_slist_append(list, "Content-Type: \(signal.encoding.contentType)")
        if body.gzip { list = catfacts_curl_slist_append(list, "Content-Encoding: gzip") }
        list = catfacts_curl_slist_append(list, "Expect:")
        let left = deadline - ContinuousClock.now
        let milliseconds = max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
        var bytes = body.bytes
        let failure: String? = bytes.withUnsafeMutableBytes { raw -> String? in
            var failed: CURLcode = CURLE_OK
            func set(_ code: CURLcode) { if failed == CURLE_OK { failed = code } }
            set(catfacts_curl_set_string(handle, CURLOPT_URL, url))
            set(catfacts_curl_set_string(handle, CURLOPT_PROXY, proxy.proxy ?? ""))
            set(catfacts_curl_set_pointer(handle, CURLOPT_HTTPHEADER, list.map(UnsafeMutableRawPointer.init)))
            set(catfacts_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, raw.count))
            set(catfacts_curl_set_pointer(handle, CURLOPT_POSTFIELDS, raw.baseAddress))
            set(catfacts_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
            set(catfacts_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(milliseconds)))
            set(catfacts_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
            // _CERTIFICATE: the collector's own CA; _CLIENT_*: this side's certificate (mTLS).
            if let certificate = signal.certificate { set(catfacts_curl_set_string(handle, CURLOPT_CAINFO, certificate)) }
            if let certificate = signal.clientCertificate { set(catfacts_curl_set_string(handle, CURLOPT_SSLCERT, certificate)) }
            if let key = signal.clientKey { set(catfacts_curl_set_string(handle, CURLOPT_SSLKEY, key)) }
            // The collector's answer is not read: only its status matters.
            set(catfacts_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, { _, size, count, _ in size * count }))
            guard failed == CURLE_OK else { return "libcurl refused an option (\(String(cString: catfacts_curl_easy_strerror(failed))))" }
            guard catfacts_curl_multi_add_handle(multi, handle) == CURLM_OK else { return "libcurl refused the transfer" }
            defer { _ = catfacts_curl_multi_remove_handle(multi, handle) }
            while true {
                var running: Int32 = 0
                _ = catfacts_curl_multi_perform(multi, &running)
                var queued: Int32 = 0
                if let message = catfacts_curl_multi_info_read(multi, &queued), message.pointee.msg == CURLMSG_DONE {
                    let code = message.pointee.data.result
                    guard code == CURLE_OK else { return String(cString: catfacts_curl_easy_strerror(code)) }
                    var status = 0
                    _ = catfacts_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
                    return (200..<300).contains(status) ? nil : "the collector answered HTTP \(status)"
                }
                if ContinuousClock.now >= deadline { return "no answer within the export timeout" }
                if giveUp() { return "given up: the client closed" }
                // A short poll, so a close is seen within 50 ms even while the collector hangs.
                _ = catfacts_curl_multi_poll(multi, 50)
            }
        }
        return failure
    }
}

/// The libcurl handles an exporter's thread posts one signal with, kept from one export to the
/// next so that the collector's connection is reused (HTTP keep-alive, as OpenTelemetry's SDKs
/// do) instead of opened for every batch: made on first use, freed with the object. Only the
/// thread that made it uses it: a child of `fork()` starts a thread of its own, which makes
/// its own.
final class OTLPConnection {
    /// Why the handles could not be made.
    struct Failure: Error {
        let message: String
    }

    private var multi: UnsafeMutableRawPointer?
    private var handle: UnsafeMutableRawPointer?

    init() {}

    deinit {
        if let handle { catfacts_curl_easy_cleanup(handle) }
        if let multi { _ = catfacts_curl_multi_cleanup(multi) }
    }

    /// The handles, made now if this is the first export.
    func handles() -> Result<(multi: UnsafeMutableRawPointer, handle: UnsafeMutableRawPointer), Failure> {
        if let multi, let handle { return .success((multi, handle)) }
        var why: UnsafePointer<CChar>?
        guard catfacts_curl_load(&why) == 0 else {
            return .failure(Failure(message: why.map { String(cString: $0) } ?? "libcurl could not be loaded"))
        }
        if multi == nil { multi = catfacts_curl_multi_init() }
        guard let multi else { return .failure(Failure(message: "libcurl could not create a multi handle")) }
        if handle == nil { handle = catfacts_curl_easy_init() }
        guard let handle else { return .failure(Failure(message: "libcurl could not create a transfer")) }
        return .success((multi, handle))
    }
}
