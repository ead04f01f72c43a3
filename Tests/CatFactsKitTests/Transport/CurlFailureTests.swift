import CCurl
import Testing
@testable import CatFactsKit

/// Every libcurl code an exchange can meet says its cause and what to do, in the message a
/// user reads (`description`), not libcurl's bare text.
struct CurlFailureTests {
    private static let url = "https://api.example/breeds?page=1"
    private static let bundle = CertificateAuthorities(file: "/etc/corp/ca.pem", directory: nil, source: "the ca_file option")

    private static func message(_ code: UInt32, _ detail: String, proxy: ProxyChoice = .direct,
                                certificates: CertificateAuthorities = .system) -> String {
        CurlFailure(code: code, detail: detail, url: url, proxy: proxy, certificates: certificates,
                    limits: TransportLimits()).error.description
    }

    /// code, libcurl's text as it writes it, and what the message must say: the cause and the remedy.
    static let table: [(UInt32, String, [String])] = [
        (CURLE_UNSUPPORTED_PROTOCOL.rawValue, "Protocol \"ftp\" not supported", ["a redirect to a protocol other than http or https", "only http and https are followed"]),
        (CURLE_UNSUPPORTED_PROTOCOL.rawValue, "Received HTTP/0.9 when not allowed", ["the reply is not HTTP", "is this the address of an HTTP server?"]),
        (CURLE_FAILED_INIT.rawValue, "Failed initialization", ["internal error", "please report it"]),
        (CURLE_URL_MALFORMAT.rawValue, "URL using bad/illegal format", ["cannot read the URL", "check the base URL"]),
        (CURLE_NOT_BUILT_IN.rawValue, "A requested feature was not built in", ["built without", "install your distribution's libcurl4", "CATFACTS_LIBCURL"]),
        (CURLE_COULDNT_RESOLVE_PROXY.rawValue, "Could not resolve proxy: p", ["proxy not found", "check the proxy's host name"]),
        (CURLE_COULDNT_RESOLVE_HOST.rawValue, "Could not resolve host: api.example", ["host not found", "check the address"]),
        (CURLE_COULDNT_CONNECT.rawValue, "Failed to connect", ["connection refused", "is the server running?"]),
        (CURLE_WEIRD_SERVER_REPLY.rawValue, "Weird server reply", ["the reply is not HTTP", "is this the address of an HTTP server?"]),
        (CURLE_HTTP2.rawValue, "Error in the HTTP2 framing layer", ["connection was lost", "check the address and your connection"]),
        (CURLE_PARTIAL_FILE.rawValue, "transfer closed with 10 bytes remaining to read", ["connection was lost", "check the address and your connection"]),
        (CURLE_WRITE_ERROR.rawValue, "Failure writing output to destination", ["internal error", "please report it"]),
        (CURLE_OUT_OF_MEMORY.rawValue, "Out of memory", ["headers are over libcurl's limit", "or memory ran out", "check that the address is the API's", "free memory"]),
        (CURLE_OUT_OF_MEMORY.rawValue, "Rejected 1000015 bytes header (max is 102400)!", ["headers are over libcurl's limit", "check that the address is the API's"]),
        (CURLE_OPERATION_TIMEDOUT.rawValue, "Operation timed out", ["timed out after 30 s", "raise timeout_ms"]),
        (CURLE_SSL_CONNECT_ERROR.rawValue, "wrong version number", ["TLS handshake failed", "speaks https on this port"]),
        (CURLE_BAD_FUNCTION_ARGUMENT.rawValue, "A libcurl function was given a bad argument", ["internal error", "please report it"]),
        (CURLE_ABORTED_BY_CALLBACK.rawValue, "Operation was aborted by an application callback", ["internal error", "please report it"]),
        (CURLE_TOO_MANY_REDIRECTS.rawValue, "Maximum (5) redirects followed", ["too many redirects", "check the base URL"]),
        (CURLE_UNKNOWN_OPTION.rawValue, "An unknown option was passed in to libcurl", ["internal error", "please report it"]),
        (CURLE_GOT_NOTHING.rawValue, "Empty reply from server", ["closed the connection without a reply", "is this the port of an HTTP server?"]),
        (CURLE_SEND_ERROR.rawValue, "Connection reset by peer", ["reset the connection", "check the address and your connection"]),
        (CURLE_RECV_ERROR.rawValue, "Recv failure: Connection reset by peer", ["reset the connection", "check the address and your connection"]),
        (CURLE_RECV_ERROR.rawValue, "Too large response headers: 307200 > 307200", ["headers are over libcurl's limit", "300 kB in all", "check that the address is the API's"]),
        (CURLE_SSL_CERTPROBLEM.rawValue, "unable to set client certificate", ["asks for a client certificate", "use an address that does not require one"]),
        (CURLE_SSL_CIPHER.rawValue, "failed setting cipher list", ["no TLS cipher is common", "outdated or unusual"]),
        (CURLE_PEER_FAILED_VERIFICATION.rawValue, "SSL certificate problem: unable to get local issuer certificate", ["could not be verified against the system's CA certificates", "ca-certificates", "ca_file", "SSL_CERT_FILE"]),
        (CURLE_BAD_CONTENT_ENCODING.rawValue, "Error while processing content unencoding", ["could not be decompressed", "damaged gzip or brotli body"]),
        (CURLE_SSL_CACERT_BADFILE.rawValue, "error setting certificate file: /etc/ssl/certs/ca-certificates.crt", ["no CA certificates to verify the server with", "install the ca-certificates package", "ca_file", "SSL_CERT_FILE", "CURL_CA_BUNDLE"]),
        (CURLE_SSL_SHUTDOWN_FAILED.rawValue, "Failed to shut down the SSL connection", ["connection was lost", "check the address and your connection"]),
        (CURLE_AGAIN.rawValue, "Socket not ready for send/recv", ["connection was lost", "check the address and your connection"]),
        (CURLE_SSL_ISSUER_ERROR.rawValue, "Issuer check against peer certificate failed", ["could not be verified", "ca_file"]),
        (CURLE_HTTP2_STREAM.rawValue, "Stream error in the HTTP/2 framing layer", ["connection was lost", "check the address and your connection"]),
        (CURLE_RECURSIVE_API_CALL.rawValue, "API function called from within callback", ["internal error", "please report it"]),
        (CURLE_AUTH_ERROR.rawValue, "An authentication function returned an error", ["proxy refused the request", "user name and password"]),
        (CURLE_PROXY.rawValue, "Proxy handshake error", ["proxy refused the request", "check the proxy URL"]),
        (CURLE_SSL_CLIENTCERT.rawValue, "SSL Client Certificate required", ["asks for a client certificate", "use an address that does not require one"]),
        (CURLE_UNRECOVERABLE_POLL.rawValue, "Unrecoverable error in select/poll", ["waiting for the network failed", "ulimit -n"]),
        (CurlFailure.tooLarge, "Too large response headers: 409600 > 307200", ["headers are over libcurl's limit", "check that the address is the API's"]),
    ]

    @Test(arguments: table.indices)
    func eachCodeNamesItsCauseAndRemedy(row: Int) {
        let (code, detail, expected) = Self.table[row]
        let message = Self.message(code, detail)
        for phrase in expected { #expect(message.contains(phrase), "code \(code): \(message)") }
    }

    @Test func everyHandledCodeIsInTheTable() {
        let tabled = Set(Self.table.map(\.0))
        #expect(Set(CurlFailure.handled).subtracting(tabled).isEmpty)
    }

    @Test func aCodeOfNoKnownKindStillSaysTheCodeAndWhatToDo() {
        let message = Self.message(999, "Something new")
        #expect(message.contains("libcurl failed (Something new, code 999); try again, and report it"))
    }

    @Test func aVerificationFailureNamesTheBundleInUseAndWhereItCameFrom() {
        let message = Self.message(CURLE_PEER_FAILED_VERIFICATION.rawValue, "unable to get local issuer certificate", certificates: Self.bundle)
        #expect(message.contains("could not be verified against /etc/corp/ca.pem (from the ca_file option)"))
        #expect(message.contains("this bundle holds the CA that signed the server's certificate"))
    }

    @Test func anUnreadableChosenBundleIsNamedNotTheSystemOnes() {
        let message = Self.message(CURLE_SSL_CACERT_BADFILE.rawValue, "error setting certificate file: /etc/corp/ca.pem",
                                   certificates: Self.bundle)
        #expect(message.contains("the CA certificates in /etc/corp/ca.pem (from the ca_file option) cannot be used"))
        #expect(!message.contains("install the ca-certificates package"))
    }

    @Test func aProxyThatFailsIsNamedWithTheWayToGoDirect() {
        let proxy = ProxyChoice(proxy: "http://user:pw@proxy.corp:3128", source: "https_proxy")
        let message = Self.message(CURLE_COULDNT_CONNECT.rawValue, "Failed to connect to proxy.corp port 3128", proxy: proxy)
        #expect(message.contains("cannot go through the proxy http://user:***@proxy.corp:3128 (from https_proxy)"))
        #expect(message.contains("set no_proxy"))
    }
}

/// Which CA certificates a client verifies with: the option, then curl's variables, then the system's.
struct CertificateAuthoritiesTests {
    @Test func theOptionComesFirst() {
        let chosen = CertificateAuthorities.choose(option: "/a.pem", environment: ["CURL_CA_BUNDLE": "/b.pem", "SSL_CERT_FILE": "/c.pem"])
        #expect(chosen == CertificateAuthorities(file: "/a.pem", directory: nil, source: "the ca_file option"))
    }

    @Test func curlCABundleComesBeforeTheOpenSSLVariables() {
        let chosen = CertificateAuthorities.choose(option: nil, environment: ["CURL_CA_BUNDLE": "/b.pem", "SSL_CERT_FILE": "/c.pem"])
        #expect(chosen == CertificateAuthorities(file: "/b.pem", directory: nil, source: "CURL_CA_BUNDLE"))
    }

    @Test func sslCertFileAndDirAreReadTogether() {
        #expect(CertificateAuthorities.choose(option: nil, environment: ["SSL_CERT_FILE": "/c.pem", "SSL_CERT_DIR": "/certs"])
                == CertificateAuthorities(file: "/c.pem", directory: "/certs", source: "SSL_CERT_FILE and SSL_CERT_DIR"))
        #expect(CertificateAuthorities.choose(option: nil, environment: ["SSL_CERT_DIR": "/certs"])
                == CertificateAuthorities(file: nil, directory: "/certs", source: "SSL_CERT_DIR"))
    }

    @Test func emptyValuesCountAsUnset() {
        #expect(CertificateAuthorities.choose(option: "", environment: ["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": ""]) == .system)
    }
}
