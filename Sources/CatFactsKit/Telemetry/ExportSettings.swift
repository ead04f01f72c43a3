/// Where and how a client exports (OTLP/HTTP, protobuf by default), from
/// ``ClientOptions/otlpEndpoint`` and the standard `OTEL_*` environment variables.
///
/// The rule: export is on when the option names a collector, or, with the option absent,
/// when `OTEL_EXPORTER_OTLP_ENDPOINT` (a base URL: `/v1/traces` and `/v1/metrics` are
/// appended) or a signal's own `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` /
/// `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` (used as is) does; `""` as the option turns it off
/// whatever the environment says, as does `OTEL_SDK_DISABLED=true` with the option absent.
/// `OTEL_TRACES_EXPORTER=none` / `OTEL_METRICS_EXPORTER=none` turn one signal off either way.
/// Each signal's protocol, compression, headers, timeout and certificates come from the
/// general variable, overridden by the signal's own (`OTEL_EXPORTER_OTLP_TRACES_*`,
/// `OTEL_EXPORTER_OTLP_METRICS_*`). A bad option fails the client
/// (``CatFactsError/argument(_:)``, naming it); a bad environment variable is ignored (its
/// default used, or its signal not sent) with a warning in ``warnings`` — the environment is
/// the whole process's, and one wrong variable must not fail every client in it.
public struct ExportSettings: Sendable, Equatable, Hashable {
    /// Where and how spans go; `nil`: spans are not sent.
    public var traces: SignalExport?
    /// Where and how metrics go; `nil`: metrics are not sent.
    public var metrics: SignalExport?
    /// The collector as the metrics JSON names it: the base URL, or the first signal's URL
    /// (without a password it may carry).
    public var endpoint: String
    /// `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,...`, values percent-decoded): sent with every
    /// export, a signal's own `_HEADERS` added over them.
    public var headers: [String: String] = [:]
    /// `service.name`: `OTEL_SERVICE_NAME`, else `service.name` in `OTEL_RESOURCE_ATTRIBUTES`,
    /// else `unknown_service:<program>` (the specification's order).
    public var serviceName: String
    /// `OTEL_RESOURCE_ATTRIBUTES`, in their order.
    public var resourceAttributes: [ResourceAttribute] = []
    /// `OTEL_METRIC_EXPORT_INTERVAL`.
    public var metricInterval: Duration = .milliseconds(60_000)
    /// `OTEL_BSP_MAX_QUEUE_SIZE`: the most finished spans waiting; past it the oldest are dropped.
    public var maxQueueSize = 2048
    /// `OTEL_BSP_SCHEDULE_DELAY`: the longest a finished span waits before a batch is sent.
    public var scheduleDelay: Duration = .milliseconds(5000)
    /// `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`: the most spans in one request.
    public var maxBatchSize = 512
    /// The limit of each span export request: the traces' timeout
    /// (`OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, else `OTEL_EXPORTER_OTLP_TIMEOUT`, default 10 s),
    /// and no more than `OTEL_BSP_EXPORT_TIMEOUT` (default 30 s); without traces, the metrics'.
    public var exportTimeout: Duration = .milliseconds(10_000)
    /// The environment variables that were ignored, and why.
    public var warnings: [String] = []

    /// Where spans go (`<base>/v1/traces`); `nil`: spans are not sent.
    public var tracesURL: String? { traces?.url }
    /// Where metrics go (`<base>/v1/metrics`); `nil`: metrics are not sent.
    public var metricsURL: String? { metrics?.url }

    /// One `OTEL_RESOURCE_ATTRIBUTES` pair.
    public struct ResourceAttribute: Sendable, Equatable, Hashable {
        public var key: String
        public var value: String
    }

    /// The longest collector URL accepted, in bytes.
    static var longestURL: Int { ClientOption.otlpEndpoint.longest ?? ClientOption.longestURL }

    /// The settings for `option` (``ClientOptions/otlpEndpoint``) in `environment`: `nil` with
    /// export off, and the warnings about the environment either way.
    ///
    /// - Throws: ``CatFactsError/invalidOption(_:value:problem:)`` when `option` is not an http(s) URL, is over
    ///   2048 bytes or holds a space or a control character.
    public static func resolve(option: String?, environment: [String: String]) throws(CatFactsError) -> (ExportSettings?, [String]) {
        var reader = EnvironmentReader(environment: environment)
        var traces: String?, metrics: String?, endpoint: String
        if let option {
            guard !option.isEmpty else { return (nil, []) }
            if let problem = problem(withURL: option) {
                throw .invalidOption(.otlpEndpoint, value: "'\(QuotedValue.shown(ProxyChoice.redacted(option)))'", problem: problem)
            }
            let base = trimmedBase(option)
            (traces, metrics, endpoint) = (base + "/v1/traces", base + "/v1/metrics", ProxyChoice.redacted(base))
        } else {
            if environment["OTEL_SDK_DISABLED"]?.trimmed().lowercased() == "true" { return (nil, []) }
            let base = reader.url("OTEL_EXPORTER_OTLP_ENDPOINT").map(trimmedBase)
            traces = reader.url("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? base.map { $0 + "/v1/traces" }
            metrics = reader.url("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") ?? base.map { $0 + "/v1/metrics" }
            guard let shownEndpoint = base ?? traces ?? metrics else { return (nil, reader.warnings) }
            endpoint = ProxyChoice.redacted(shownEndpoint)
        }
        if !reader.exporterIsOTLP("OTEL_TRACES_EXPORTER") { traces = nil }
        if !reader.exporterIsOTLP("OTEL_METRICS_EXPORTER") { metrics = nil }
        guard traces != nil || metrics != nil else { return (nil, reader.warnings) }
        let program = ProcessEnvironment.programName
        var settings = ExportSettings(endpoint: endpoint, serviceName: "unknown_service:\(program.isEmpty ? "catfacts" : program)")
        settings.headers = Dictionary(reader.pairs("OTEL_EXPORTER_OTLP_HEADERS").map { ($0.0, $0.1) }, uniquingKeysWith: { _, last in last })
        settings.resourceAttributes = reader.pairs("OTEL_RESOURCE_ATTRIBUTES").map { ResourceAttribute(key: $0.0, value: $0.1) }
        if let named = reader.text("OTEL_SERVICE_NAME") ?? settings.resourceAttributes.last(where: { $0.key == "service.name" })?.value {
            settings.serviceName = named
        }
        settings.metricInterval = .milliseconds(reader.integer("OTEL_METRIC_EXPORT_INTERVAL", in: 1...86_400_000, default: 60_000))
        settings.maxQueueSize = reader.integer("OTEL_BSP_MAX_QUEUE_SIZE", in: 1...1_000_000, default: 2048)
        settings.scheduleDelay = .milliseconds(reader.integer("OTEL_BSP_SCHEDULE_DELAY", in: 0...86_400_000, default: 5000))
        settings.maxBatchSize = min(reader.integer("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", in: 1...1_000_000, default: 512), settings.maxQueueSize)
        let general = reader.signalDefaults(headers: settings.headers)
        let batchLimit = reader.integer("OTEL_BSP_EXPORT_TIMEOUT", in: 1...3_600_000, default: 30_000)
        let metricLimit = reader.integer("OTEL_METRIC_EXPORT_TIMEOUT", in: 1...3_600_000, default: 30_000)
        settings.traces = traces.map { reader.signal("TRACES", url: $0, general: general, limit: batchLimit) }
        settings.metrics = metrics.map { reader.signal("METRICS", url: $0, general: general, limit: metricLimit) }
        settings.exportTimeout = settings.traces?.timeout ?? settings.metrics?.timeout ?? .milliseconds(10_000)
        reader.warnAboutUnsupported()
        settings.warnings = reader.warnings
        return (settings, settings.warnings)
    }

    /// What is wrong with `text` as a collector URL, or `nil`.
    static func problem(withURL text: String) -> String? {
        guard text.utf8.count <= longestURL else { return "is longer than \(longestURL) bytes" }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            return "contains a space or a control character"
        }
        guard let url = WebAddress(string: text) else { return "is not a URL; expected e.g. http://127.0.0.1:4318" }
        let scheme = url.scheme.lowercased()
        guard scheme == "http" || scheme == "https" else { return "uses scheme '\(scheme)'; only http and https are accepted" }
        guard let host = url.host, !host.isEmpty else { return "has no host" }
        guard url.query == nil, url.fragment == nil else { return "must not carry a query or fragment" }
        return nil
    }

    private static func trimmedBase(_ text: String) -> String {
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}

/// How one signal (spans or metrics) is exported: where to, in which encoding, compressed or
/// not, with which headers, within which time, trusting which certificates.
public struct SignalExport: Sendable, Equatable, Hashable {
    /// The full URL POSTed to.
    public var url: String
    /// `http/protobuf` (the default) or `http/json`.
    public var encoding: OTLPEncoding = .protobuf
    /// `_COMPRESSION=gzip`: bodies gzip-compressed (`Content-Encoding: gzip`).
    public var gzip = false
    /// The general `_HEADERS` with the signal's own added over them.
    public var headers: [String: String] = [:]
    /// The limit of one request.
    public var timeout: Duration = .milliseconds(10_000)
    /// `_CERTIFICATE`: a PEM file of the CAs that the collector's certificate must chain to.
    public var certificate: String?
    /// `_CLIENT_CERTIFICATE` and `_CLIENT_KEY`: the PEM files of this side's TLS identity.
    public var clientCertificate: String?
    public var clientKey: String?
}

/// OTLP/HTTP's two encodings.
public enum OTLPEncoding: String, Sendable, Equatable, Hashable {
    case protobuf = "http/protobuf"
    case json = "http/json"

    /// The `Content-Type` of a body in this encoding.
    var contentType: String {
        switch self {
        case .protobuf: "application/x-protobuf"
        case .json: "application/json"
        }
    }
}

/// Reads `OTEL_*` values, noting each it had to ignore.
private struct EnvironmentReader {
    let environment: [String: String]
    var warnings: [String] = []

    /// The general settings every signal starts from.
    struct Defaults {
        var encoding: OTLPEncoding
        var gzip: Bool
        var headers: [String: String]
        var timeout: Int
        var certificate: String?
        var clientCertificate: String?
        var clientKey: String?
    }

    /// The variables the library reads, beside the `_EXPORTER_OTLP_` ones built from a signal's
    /// name; any other `OTEL_EXPORTER_OTLP_*`, `OTEL_BSP_*` or `OTEL_METRIC_EXPORT_*` draws a warning.
    static let read: Set<String> = {
        var names: Set<String> = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_BSP_MAX_QUEUE_SIZE", "OTEL_BSP_SCHEDULE_DELAY",
                                  "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "OTEL_BSP_EXPORT_TIMEOUT", "OTEL_METRIC_EXPORT_INTERVAL",
                                  "OTEL_METRIC_EXPORT_TIMEOUT", "OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE"]
        for signal in ["", "_TRACES", "_METRICS"] {
            for setting in ["PROTOCOL", "COMPRESSION", "HEADERS", "TIMEOUT", "CERTIFICATE", "CLIENT_CERTIFICATE", "CLIENT_KEY"] {
                names.insert("OTEL_EXPORTER_OTLP\(signal)_\(setting)")
            }
        }
        names.insert("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        names.insert("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")
        return names
    }()

    /// The general `OTEL_EXPORTER_OTLP_*` settings.
    mutating func signalDefaults(headers: [String: String]) -> Defaults {
        Defaults(encoding: encoding("OTEL_EXPORTER_OTLP_PROTOCOL") ?? .protobuf,
                 gzip: compression("OTEL_EXPORTER_OTLP_COMPRESSION") ?? false, headers: headers,
                 timeout: integer("OTEL_EXPORTER_OTLP_TIMEOUT", in: 1...3_600_000, default: 10_000),
                 certificate: file("OTEL_EXPORTER_OTLP_CERTIFICATE"),
                 clientCertificate: file("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE"),
                 clientKey: file("OTEL_EXPORTER_OTLP_CLIENT_KEY"))
    }

    /// The settings of signal `name` (`TRACES`, `METRICS`): its own variables over `general`;
    /// its timeout no more than `limit` milliseconds (the batch's or the metric export's).
    mutating func signal(_ name: String, url: String, general: Defaults, limit: Int) -> SignalExport {
        let prefix = "OTEL_EXPORTER_OTLP_\(name)_"
        var signal = SignalExport(url: url)
        signal.encoding = encoding(prefix + "PROTOCOL") ?? general.encoding
        signal.gzip = compression(prefix + "COMPRESSION") ?? general.gzip
        signal.headers = general.headers.merging(pairs(prefix + "HEADERS").map { ($0.0, $0.1) }) { _, own in own }
        let timeout = text(prefix + "TIMEOUT") == nil ? general.timeout : integer(prefix + "TIMEOUT", in: 1...3_600_000, default: general.timeout)
        signal.timeout = .milliseconds(min(timeout, limit))
        signal.certificate = file(prefix + "CERTIFICATE") ?? general.certificate
        signal.clientCertificate = file(prefix + "CLIENT_CERTIFICATE") ?? general.clientCertificate
        signal.clientKey = file(prefix + "CLIENT_KEY") ?? general.clientKey
        return signal
    }

    /// A collector URL, or `nil` (with a warning when it is refused).
    mutating func url(_ name: String) -> String? {
        guard let text = text(name) else { return nil }
        if let problem = ExportSettings.problem(withURL: text) {
            warnings.append("\(name) ignored: '\(QuotedValue.shown(ProxyChoice.redacted(text)))' \(problem)")
            return nil
        }
        return text
    }

    /// Whether `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER` lets the signal go by OTLP:
    /// unset or `otlp` yes, `none` no; another exporter (the library has none) draws a warning.
    mutating func exporterIsOTLP(_ name: String) -> Bool {
        guard let value = text(name) else { return true }
        let choices = value.lowercased().split(separator: ",").map { $0.trimmed() }
        if choices == ["none"] { return false }
        let unknown = choices.filter { $0 != "otlp" }
        if !unknown.isEmpty {
            warnings.append("\(name) '\(QuotedValue.shown(value))' ignored in part: the library exports by otlp only (or none)")
        }
        return choices.contains("otlp") || unknown.allSatisfy { $0 != "none" }
    }

    /// `http/protobuf` or `http/json`; `grpc` (which the library does not speak) draws a warning.
    mutating func encoding(_ name: String) -> OTLPEncoding? {
        guard let value = text(name) else { return nil }
        if let known = OTLPEncoding(rawValue: value.lowercased()) { return known }
        warnings.append("\(name) '\(QuotedValue.shown(value))' ignored: the library sends http/protobuf or http/json")
        return nil
    }

    /// `gzip` (true) or `none` (false).
    mutating func compression(_ name: String) -> Bool? {
        guard let value = text(name) else { return nil }
        switch value.lowercased() {
        case "gzip": return true
        case "none": return false
        default:
            warnings.append("\(name) '\(QuotedValue.shown(value))' ignored: expected gzip or none")
            return nil
        }
    }

    /// A PEM file's path; one that cannot be read draws a warning (and libcurl's own choice is kept).
    mutating func file(_ name: String) -> String? {
        guard let path = text(name) else { return nil }
        guard FileSystem.isReadable(path) else {
            warnings.append("\(name) '\(QuotedValue.shown(path))' ignored: the file cannot be read")
            return nil
        }
        return path
    }

    /// A warning naming each exporter variable the library does not act on.
    mutating func warnAboutUnsupported() {
        for name in environment.keys.sorted() {
            let exporterSetting = name.hasPrefix("OTEL_EXPORTER_OTLP_") || name.hasPrefix("OTEL_BSP_") || name.hasPrefix("OTEL_METRIC_EXPORT_")
            guard exporterSetting, !Self.read.contains(name), !name.hasPrefix("OTEL_EXPORTER_OTLP_LOGS_"), text(name) != nil else { continue }
            if name.hasSuffix("_INSECURE") {
                warnings.append("\(name) ignored: it applies to OTLP/gRPC only (OTLP/HTTP follows the URL's scheme)")
            } else {
                warnings.append("\(name) ignored: the library does not support it")
            }
        }
        if let preference = text("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE"), preference.lowercased() != "cumulative" {
            warnings.append("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE '\(QuotedValue.shown(preference))' ignored: the library sends cumulative metrics only")
        }
    }

    func text(_ name: String) -> String? {
        guard let value = environment[name]?.trimmed(), !value.isEmpty else { return nil }
        return value
    }

    mutating func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) -> Int {
        guard let value = text(name) else { return fallback }
        guard let number = Int(value), range.contains(number) else {
            warnings.append("\(name) '\(QuotedValue.shown(value))' ignored: expected a whole number from \(range.lowerBound) to \(range.upperBound); using \(fallback)")
            return fallback
        }
        return number
    }

    /// `key=value,...` with percent-encoded values (the W3C Baggage form the spec uses).
    mutating func pairs(_ name: String) -> [(String, String)] {
        guard let value = text(name) else { return [] }
        var pairs: [(String, String)] = []
        for item in value.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            let key = parts.first.map { $0.trimmed() } ?? ""
            let decoded = parts.count == 2 ? Self.percentDecoded(parts[1].trimmed()) : nil
            guard parts.count == 2, !key.isEmpty, let decoded,
                  !(key + decoded).unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                warnings.append("\(name): '\(QuotedValue.shown(String(item)))' ignored: expected key=value (value percent-encoded, no control characters)")
                continue
            }
            pairs.append((key, decoded))
        }
        return pairs
    }

    /// `text` with its `%XX` escapes decoded; `nil` when an escape is broken or the bytes are not UTF-8.
    private static func percentDecoded(_ text: String) -> String? {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            guard utf8[index] == UInt8(ascii: "%") else {
                bytes.append(utf8[index])
                index += 1
                continue
            }
            guard index + 2 < utf8.count, let byte = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
            index += 3
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
