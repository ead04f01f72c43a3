import CCurl
import Synchronization

/// One request through ``CurlEngine``: its easy handle and what the transfer has brought
/// so far, then the single resumption of the caller.
final class CurlExchange: @unchecked Sendable {
    // @unchecked: everything but `waiting` and `cancelRequested` (Mutexes) is touched only
    // on the engine's thread, where libcurl's callbacks run too.
    let url: String
    /// `url` as messages show it: without a password.
    let shownURL: String
    let limits: TransportLimits
    /// The CA certificates https servers are checked against.
    let certificates: CertificateAuthorities
    private let request: HTTPRequest
    private let waiting = Locked<CheckedContinuation<Result<HTTPResponse, CatFactsError>, Never>?>(nil)
    private let cancelRequested = Locked(false)

    private(set) var handle: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var body: [UInt8] = []
    private var headers: [String: String] = [:]
    private var tooLarge: Int?
    /// When the transfer is ended for having received nothing for too long.
    private(set) var idleDeadline: ContinuousClock.Instant

    init(request: HTTPRequest, limits: TransportLimits, certificates: CertificateAuthorities = .system) {
        self.request = request
        self.limits = limits
        self.certificates = certificates
        url = request.url.absoluteString
        shownURL = ProxyChoice.redacted(url)
        idleDeadline = ContinuousClock.now + limits.connectTimeout
        errorText.initialize(to: 0)
    }

    deinit {
        release()
        errorText.deallocate()
    }

    /// Records the caller to resume.
    func begin(_ continuation: CheckedContinuation<Result<HTTPResponse, CatFactsError>, Never>) {
        waiting.withLock { $0 = continuation }
    }

    /// Marks the exchange cancelled, so it is not started if it has not been.
    func requestCancel() {
        cancelRequested.withLock { $0 = true }
    }

    /// Frees the transfer and resumes the caller with `result`, once (later calls, and
    /// calls before ``begin(_:)``, do nothing but free).
    func finish(_ result: Result<HTTPResponse, CatFactsError>) {
        release()
        waiting.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }?.resume(returning: result)
    }

    private func release() {
        if let handle { catfacts_curl_easy_cleanup(handle) }
        handle = nil
        catfacts_curl_slist_free_all(headerList)
        headerList = nil
    }

    // MARK: Setting up

    /// The easy handle for the request, set up; an error when it cannot be, or
    /// ``CatFactsError/cancelled`` when the caller has already given up.
    func makeHandle() -> Result<UnsafeMutableRawPointer, CatFactsError> {
        if cancelRequested.withLock({ $0 }) { return .failure(.cancelled) }
        guard let handle = catfacts_curl_easy_init() else { return .failure(.internal("libcurl could not create a transfer")) }
        self.handle = handle
        for (name, value) in request.headers {
            headerList = catfacts_curl_slist_append(headerList, "\(name): \(value)")
        }
        // Asked for by the client, so a server's "Expect: 100-continue" dance never starts.
        headerList = catfacts_curl_slist_append(headerList, "Expect:")
        let context = Unmanaged.passUnretained(self).toOpaque()
        let total = Int(limits.totalTimeout.seconds * 1000)
        var failed: CURLcode = CURLE_OK
        func set(_ code: CURLcode) { if failed == CURLE_OK { failed = code } }
        set(catfacts_curl_set_string(handle, CURLOPT_URL, url))
        // The client decided (ProxyChoice): "" makes libcurl go direct whatever the environment.
        set(catfacts_curl_set_string(handle, CURLOPT_PROXY, request.proxy.proxy ?? ""))
        set(catfacts_curl_set_pointer(handle, CURLOPT_HTTPHEADER, headerList.map(UnsafeMutableRawPointer.init)))
        set(catfacts_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorText))
        set(catfacts_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        // The total limit; connecting, like every other wait, is bounded by the idle limit,
        // which the engine enforces itself (to the millisecond).
        set(catfacts_curl_set_long(handle, CURLOPT_TIMEOUT_MS, max(1, total)))
        set(catfacts_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1))
        set(catfacts_curl_set_long(handle, CURLOPT_MAXREDIRS, 5))
        set(catfacts_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(catfacts_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        set(catfacts_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, ""))
        // Named only when chosen (CertificateAuthorities): else the bundle catfacts_curl_easy_init
        // gave, or libcurl's own, stays.
        if let file = certificates.file { set(catfacts_curl_set_string(handle, CURLOPT_CAINFO, file)) }
        if let directory = certificates.directory { set(catfacts_curl_set_string(handle, CURLOPT_CAPATH, directory)) }
        set(catfacts_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, { data, size, count, context in
            guard let data, let context else { return 0 }
            return Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue().receiveBody(data, size * count)
        }))
        set(catfacts_curl_set_pointer(handle, CURLOPT_WRITEDATA, context))
        set(catfacts_curl_set_callback(handle, CURLOPT_HEADERFUNCTION, { data, size, count, context in
            guard let data, let context else { return 0 }
            return Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue().receiveHeader(data, size * count)
        }))
        set(catfacts_curl_set_pointer(handle, CURLOPT_HEADERDATA, context))
        guard failed == CURLE_OK else {
            return .failure(.internal("libcurl refused an option (\(String(cString: catfacts_curl_easy_strerror(failed))))"))
        }
        return .success(handle)
    }

    // MARK: Receiving (libcurl's callbacks, on the engine's thread)

    /// One header line. A status line starts a new response (after a redirect or a 100),
    /// so only the last response's fields are kept. Returns `count`, or 0 to stop the
    /// transfer when the declared length is over the cap.
    private func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        idleDeadline = ContinuousClock.now + limits.connectTimeout
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return count
        }
        guard let colon = line.firstIndex(of: ":") else { return count }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmed()
        headers[name] = value
        if name == "content-length", let declared = Int(value) {
            if declared > limits.maxBodyBytes {
                tooLarge = declared
                return 0
            }
            body.reserveCapacity(declared)
        }
        return count
    }

    /// A part of the body. Returns `count`, or 0 to stop the transfer past the cap.
    private func receiveBody(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        idleDeadline = ContinuousClock.now + limits.connectTimeout
        guard body.count + count <= limits.maxBodyBytes else {
            tooLarge = body.count + count
            return 0
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        return count
    }

    // MARK: Ending

    /// What the caller gets for a transfer libcurl ended with `code`.
    func outcome(_ code: CURLcode) -> Result<HTTPResponse, CatFactsError> {
        if let tooLarge {
            return .failure(.decode("the body is larger than the \(limits.maxBodyBytes)-byte limit (\(tooLarge) bytes or more); raise max_body_bytes if this is expected", url: shownURL))
        }
        guard code == CURLE_OK else { return .failure(classify(code)) }
        var status = 0
        if let handle { _ = catfacts_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status) }
        guard status > 0 else { return .failure(.network("no HTTP response", url: shownURL)) }
        return .success(HTTPResponse(status: status, headers: headers, body: body))
    }

    @_optimize(size)  // once per failed transfer
    private func classify(_ code: CURLcode) -> CatFactsError {
        let detail = errorText.pointee != 0 ? String(cString: errorText) : String(cString: catfacts_curl_easy_strerror(code))
        return CurlFailure(code: code.rawValue, detail: detail, url: shownURL, proxy: request.proxy,
                           certificates: certificates, limits: limits).error
    }
}
