import CCurl

/// A transfer libcurl ended with an error code, in the caller's words: what went wrong and
/// what to do about it. libcurl's own text ("SSL certificate problem: unable to get local
/// issuer certificate") names the cause in its terms; the message adds the remedy, and which
/// proxy or CA bundle was in use, since the library chose them.
struct CurlFailure {
    /// libcurl's code (its raw value: codes newer than the headers built with, such as
    /// `CURLE_TOO_LARGE`, 100, arrive from a newer libcurl all the same).
    let code: UInt32
    /// libcurl's error buffer, else `curl_easy_strerror`.
    let detail: String
    /// The URL as messages show it (no password).
    let url: String
    let proxy: ProxyChoice
    let certificates: CertificateAuthorities
    let limits: TransportLimits

    /// The codes an exchange of this library can meet (http and https, a proxy, compressed
    /// bodies, redirects, TLS with the CA bundle it chose): each has a message of its own.
    /// The others (FTP's, SSH's, options it never sets) fall to the general message.
    static let handled: [UInt32] = [
        CURLE_UNSUPPORTED_PROTOCOL, CURLE_FAILED_INIT, CURLE_URL_MALFORMAT, CURLE_NOT_BUILT_IN,
        CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_WEIRD_SERVER_REPLY,
        CURLE_HTTP2, CURLE_PARTIAL_FILE, CURLE_WRITE_ERROR, CURLE_OUT_OF_MEMORY, CURLE_OPERATION_TIMEDOUT,
        CURLE_SSL_CONNECT_ERROR, CURLE_BAD_FUNCTION_ARGUMENT, CURLE_ABORTED_BY_CALLBACK, CURLE_TOO_MANY_REDIRECTS,
        CURLE_UNKNOWN_OPTION, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_SSL_CERTPROBLEM,
        CURLE_SSL_CIPHER, CURLE_PEER_FAILED_VERIFICATION, CURLE_BAD_CONTENT_ENCODING, CURLE_SSL_CACERT_BADFILE,
        CURLE_SSL_SHUTDOWN_FAILED, CURLE_AGAIN, CURLE_SSL_ISSUER_ERROR, CURLE_HTTP2_STREAM, CURLE_RECURSIVE_API_CALL,
        CURLE_AUTH_ERROR, CURLE_PROXY, CURLE_SSL_CLIENTCERT, CURLE_UNRECOVERABLE_POLL,
    ].map(\.rawValue) + [tooLarge]

    /// `CURLE_TOO_LARGE` (libcurl 8.6 and later: headers over its limit, among others).
    static let tooLarge: UInt32 = 100

    /// The codes that, with a proxy in use, mean the proxy failed: it could not be resolved or
    /// connected to (through a proxy, libcurl connects to nothing else), or refused the tunnel.
    private static let proxyFailures: Set<UInt32> = [CURLE_COULDNT_RESOLVE_PROXY.rawValue, CURLE_COULDNT_CONNECT.rawValue,
                                                     CURLE_PROXY.rawValue]

    private static let notHTTP = "the reply is not HTTP (is this the address of an HTTP server?)"
    private static let caOption = "the ca_file option (--ca-file in the shell)"

    /// libcurl's limit on a response's headers, as its messages and versions have it: 100 kB
    /// a header line, 300 kB in all (libcurl 7.88; 8.x counts them alike).
    private var headersOverLimit: Bool {
        let text = detail.lowercased()
        return text.containsUTF8("header") && (text.containsUTF8("too large") || text.containsUTF8("rejected") || text.containsUTF8("max"))
    }

    @_optimize(size)  // once per failed transfer
    var error: CatFactsError {
        if let via = proxy.proxy, Self.proxyFailures.contains(code) {
            return .network("cannot go through the proxy \(ProxyChoice.redacted(via)) (from \(proxy.source ?? "the environment")): "
                            + "\(detail); check the proxy's address and that it is running, or set no_proxy (or the proxy "
                            + "option to \"\") to go direct", url: url)
        }
        if headersOverLimit, [CURLE_OUT_OF_MEMORY.rawValue, CURLE_RECV_ERROR.rawValue, Self.tooLarge].contains(code) {
            return .network("the response's headers are over libcurl's limit (100 kB a line, 300 kB in all): \(detail); "
                            + "the server sends far more headers than an API does: check that the address is the API's", url: url)
        }
        switch code {
        case CURLE_OPERATION_TIMEDOUT.rawValue:
            return .timeout(seconds: limits.totalTimeout.seconds, url: url)
        case CURLE_COULDNT_CONNECT.rawValue:
            return .network("connection refused (is the server running?)", url: url)
        case CURLE_COULDNT_RESOLVE_HOST.rawValue:
            return .network("host not found", url: url)
        case CURLE_COULDNT_RESOLVE_PROXY.rawValue:
            return .network("proxy not found (\(detail)); check the proxy's host name", url: url)
        case CURLE_WEIRD_SERVER_REPLY.rawValue:
            return .network(Self.notHTTP, url: url)
        case CURLE_UNSUPPORTED_PROTOCOL.rawValue where detail.containsUTF8("HTTP/0.9"):
            // libcurl's word for a reply with no HTTP status line.
            return .network(Self.notHTTP, url: url)
        case CURLE_UNSUPPORTED_PROTOCOL.rawValue:
            return .network("a redirect to a protocol other than http or https (\(detail)); only http and https are followed", url: url)
        case CURLE_URL_MALFORMAT.rawValue:
            return .network("libcurl cannot read the URL (\(detail)); check the base URL", url: url)
        case CURLE_NOT_BUILT_IN.rawValue:
            return .network("the libcurl in use was built without what this request needs (\(detail)); install your "
                            + "distribution's libcurl4, or name another libcurl in CATFACTS_LIBCURL", url: url)
        case CURLE_OUT_OF_MEMORY.rawValue:
            // libcurl 7.88 says only "Out of memory" for a header line over its 100 kB, which
            // is far likelier here than memory running out.
            return .network("the response's headers are over libcurl's limit (100 kB a line, 300 kB in all), or memory "
                            + "ran out (\(detail)); check that the address is the API's (an API sends far fewer headers), "
                            + "or free memory", url: url)
        case CURLE_GOT_NOTHING.rawValue:
            return .network("the server closed the connection without a reply (is this the port of an HTTP server?)", url: url)
        case CURLE_RECV_ERROR.rawValue where detail.containsUTF8("reset"), CURLE_SEND_ERROR.rawValue where detail.containsUTF8("reset"):
            return .network("the server reset the connection", url: url)
        case CURLE_PARTIAL_FILE.rawValue, CURLE_RECV_ERROR.rawValue, CURLE_SEND_ERROR.rawValue, CURLE_HTTP2.rawValue,
             CURLE_HTTP2_STREAM.rawValue, CURLE_AGAIN.rawValue, CURLE_SSL_SHUTDOWN_FAILED.rawValue:
            return .network("the connection was lost before the response was complete", url: url)
        case CURLE_BAD_CONTENT_ENCODING.rawValue:
            return .network("the body could not be decompressed (\(detail)); the server sent a damaged gzip or brotli body", url: url)
        case CURLE_TOO_MANY_REDIRECTS.rawValue:
            return .network("too many redirects (more than 5; the server redirects in a loop); check the base URL", url: url)
        case CURLE_PEER_FAILED_VERIFICATION.rawValue, CURLE_SSL_ISSUER_ERROR.rawValue:
            return .network(verificationFailed, url: url)
        case CURLE_SSL_CACERT_BADFILE.rawValue:
            return .network(bundleUnreadable, url: url)
        case CURLE_SSL_CONNECT_ERROR.rawValue:
            return .network("the TLS handshake failed (\(detail)); check that the server speaks https on this port "
                            + "(http:// for a plain one) and that nothing between intercepts it", url: url)
        case CURLE_SSL_CIPHER.rawValue:
            return .network("no TLS cipher is common to the server and this libcurl (\(detail)); the server's TLS "
                            + "settings are outdated or unusual", url: url)
        case CURLE_SSL_CERTPROBLEM.rawValue, CURLE_SSL_CLIENTCERT.rawValue:
            return .network("the server asks for a client certificate (\(detail)), which the library does not send; "
                            + "use an address that does not require one", url: url)
        case CURLE_AUTH_ERROR.rawValue, CURLE_PROXY.rawValue:
            return .network("the proxy refused the request (\(detail)); check the proxy URL and its user name and password", url: url)
        case CURLE_UNRECOVERABLE_POLL.rawValue:
            return .network("waiting for the network failed (\(detail)); the process may be out of file descriptors: "
                            + "raise its limit (ulimit -n) or close clients it no longer uses", url: url)
        case CURLE_FAILED_INIT.rawValue, CURLE_BAD_FUNCTION_ARGUMENT.rawValue, CURLE_UNKNOWN_OPTION.rawValue,
             CURLE_RECURSIVE_API_CALL.rawValue, CURLE_WRITE_ERROR.rawValue, CURLE_ABORTED_BY_CALLBACK.rawValue:
            return .internal("libcurl failed the transfer (\(detail), code \(code))")
        default:
            return .network("libcurl failed (\(detail), code \(code)); try again, and report it with this message if it persists", url: url)
        }
    }

    /// The server's certificate is not signed by a CA in the bundle in use (or its name does
    /// not match the host's).
    private var verificationFailed: String {
        let what = "the server's TLS certificate could not be verified against \(certificates.shown) (\(detail)); check the host name"
        guard certificates.source != nil else {
            return what + ", and that the system's CA certificates are installed (ca-certificates); for a server signed by "
                + "a CA of your own (a company proxy, an internal mirror), name its certificate in \(Self.caOption), "
                + "SSL_CERT_FILE or CURL_CA_BUNDLE"
        }
        return what + ", and that this bundle holds the CA that signed the server's certificate"
    }

    /// The CA bundle in use cannot be read, or there is none.
    private var bundleUnreadable: String {
        guard certificates.source != nil else {
            return "no CA certificates to verify the server with (\(detail)); install the ca-certificates package, or name "
                + "a PEM file of CA certificates in \(Self.caOption), SSL_CERT_FILE or CURL_CA_BUNDLE"
        }
        return "the CA certificates in \(certificates.shown) cannot be used (\(detail)); check that the path exists, "
            + "is readable and holds PEM certificates"
    }
}
