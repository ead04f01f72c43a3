/// Which CA certificates an https server's certificate is checked against: curl's rules,
/// decided here because the library names a bundle to libcurl itself (the system's, when
/// libcurl's own is missing), which would otherwise hide the environment from it.
///
/// In order: the client's `ca_file` option; else `CURL_CA_BUNDLE`; else `SSL_CERT_FILE` and
/// `SSL_CERT_DIR` (either or both, as OpenSSL reads them); else the system's bundle. An empty
/// variable counts as unset.
public struct CertificateAuthorities: Sendable, Equatable {
    /// A PEM file of CA certificates (`CURLOPT_CAINFO`); `nil` keeps the system's.
    public let file: String?
    /// A folder of hashed CA certificates, as `c_rehash` makes (`CURLOPT_CAPATH`).
    public let directory: String?
    /// Where the choice came from, for messages: `"the ca_file option"`, `"SSL_CERT_FILE"`...;
    /// `nil` for the system's bundle.
    public let source: String?

    /// The system's bundle, as libcurl (or the library, where libcurl's is missing) finds it.
    public static let system = CertificateAuthorities(file: nil, directory: nil, source: nil)

    /// The environment variables the choice reads.
    public static let variables = ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"]

    /// The choice for a client whose `ca_file` option is `option` (`nil`: not set).
    ///
    /// - Parameter environment: the process environment (a parameter, for tests).
    public static func choose(option: String?, environment: [String: String]) -> CertificateAuthorities {
        if let option, !option.isEmpty { return CertificateAuthorities(file: option, directory: nil, source: "the ca_file option") }
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let bundle = value("CURL_CA_BUNDLE") { return CertificateAuthorities(file: bundle, directory: nil, source: "CURL_CA_BUNDLE") }
        let file = value("SSL_CERT_FILE")
        let directory = value("SSL_CERT_DIR")
        guard file != nil || directory != nil else { return .system }
        let source = [file.map { _ in "SSL_CERT_FILE" }, directory.map { _ in "SSL_CERT_DIR" }].compactMap { $0 }.joined(separator: " and ")
        return CertificateAuthorities(file: file, directory: directory, source: source)
    }

    /// "/etc/corp-ca.pem (from SSL_CERT_FILE)", or "the system's CA certificates".
    var shown: String {
        guard let source else { return "the system's CA certificates" }
        return [file, directory].compactMap { $0 }.joined(separator: " and ") + " (from \(source))"
    }
}
