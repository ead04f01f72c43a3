#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where and how a client exports (OTLP/HTTP, JSON), from ``ClientOptions/otlpEndpoint`` and
/// the standard `OTEL_*` environment variables.
///
/// The rule: export is on when the option names a collector, or, with the option absent,
/// when `OTEL_EXPORTER_OTLP_ENDPOINT` (a base URL: `/v1/traces` and `/v1/metrics` are
/// appended) or a signal's own `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` /
/// `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` (used as is) does; `""` as the option turns it off
/// whatever the environment says, as does `OTEL_SDK_DISABLED=true`. A bad option fails the
/// client (``CatFactsError/argument(_:)``, naming it); a bad environment variable is ignored
/// (its default used, or its signal not sent) with a warning in ``warnings`` — the environment
/// is the whole process's, and one wrong variable must not fail every client in it.
public struct ExportSettings: Sendable, Equatable {
    /// Where spans go (`<base>/v1/traces`); `nil`: spans are not sent.
    public var tracesURL: String?
    /// Where metrics go (`<base>/v1/metrics`); `nil`: metrics are not sent.
    public var metricsURL: String?
    /// The collector as the metrics JSON names it: the base URL, or the first signal's URL
    /// (without a password it may carry).
    public var endpoint: String
    /// Sent with every export (`OTEL_EXPORTER_OTLP_HEADERS`: `key=value,...`, values percent-decoded).
    public var headers: [String: String] = [:]
    /// `service.name` (`OTEL_SERVICE_NAME`, else the program's name).
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
    /// The limit of each export request: `OTEL_EXPORTER_OTLP_TIMEOUT` (default 10 s), and no
    /// more than `OTEL_BSP_EXPORT_TIMEOUT` (default 30 s).
    public var exportTimeout: Duration = .milliseconds(10_000)
    /// The environment variables that were ignored, and why.
    public var warnings: [String] = []

    /// One `OTEL_RESOURCE_ATTRIBUTES` pair.
    public struct ResourceAttribute: Sendable, Equatable {
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
        var warnings: [String] = []
        var traces: String?, metrics: String?, endpoint: String
        if let option {
            guard !option.isEmpty else { return (nil, []) }
            if let problem = problem(withURL: option) {
                throw .invalidOption(.otlpEndpoint, value: "'\(QuotedValue.shown(ProxyChoice.redacted(option)))'", problem: problem)
            }
            let base = trimmedBase(option)
            (traces, metrics, endpoint) = (base + "/v1/traces", base + "/v1/metrics", ProxyChoice.redacted(base))
        } else {
            if environment["OTEL_SDK_DISABLED"]?.lowercased() == "true" { return (nil, []) }
            func url(_ name: String) -> String? {
                guard let text = environment[name], !text.isEmpty else { return nil }
                if let problem = problem(withURL: text) {
                    warnings.append("\(name) ignored: '\(QuotedValue.shown(ProxyChoice.redacted(text)))' \(problem)")
                    return nil
                }
                return text
            }
            let base = url("OTEL_EXPORTER_OTLP_ENDPOINT").map(trimmedBase)
            traces = url("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? base.map { $0 + "/v1/traces" }
            metrics = url("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") ?? base.map { $0 + "/v1/metrics" }
            guard let shownEndpoint = base ?? traces ?? metrics else { return (nil, warnings) }
            endpoint = ProxyChoice.redacted(shownEndpoint)
        }
        var reader = EnvironmentReader(environment: environment)
        let program = ProcessInfo.processInfo.processName
        var settings = ExportSettings(tracesURL: traces, metricsURL: metrics, endpoint: endpoint,
                                      serviceName: reader.text("OTEL_SERVICE_NAME") ?? (program.isEmpty ? "unknown_service" : program))
        if let protocolName = reader.text("OTEL_EXPORTER_OTLP_PROTOCOL"), protocolName != "http/json" {
            reader.warnings.append("OTEL_EXPORTER_OTLP_PROTOCOL '\(QuotedValue.shown(protocolName))' ignored: the library sends http/json only")
        }
        settings.headers = Dictionary(reader.pairs("OTEL_EXPORTER_OTLP_HEADERS").map { ($0.0, $0.1) }, uniquingKeysWith: { _, last in last })
        settings.resourceAttributes = reader.pairs("OTEL_RESOURCE_ATTRIBUTES").map { ResourceAttribute(key: $0.0, value: $0.1) }
        settings.metricInterval = .milliseconds(reader.integer("OTEL_METRIC_EXPORT_INTERVAL", in: 1...86_400_000, default: 60_000))
        settings.maxQueueSize = reader.integer("OTEL_BSP_MAX_QUEUE_SIZE", in: 1...1_000_000, default: 2048)
        settings.scheduleDelay = .milliseconds(reader.integer("OTEL_BSP_SCHEDULE_DELAY", in: 0...86_400_000, default: 5000))
        settings.maxBatchSize = min(reader.integer("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", in: 1...1_000_000, default: 512), settings.maxQueueSize)
        let requestLimit = reader.integer("OTEL_EXPORTER_OTLP_TIMEOUT", in: 1...3_600_000, default: 10_000)
        let batchLimit = reader.integer("OTEL_BSP_EXPORT_TIMEOUT", in: 1...3_600_000, default: 30_000)
        settings.exportTimeout = .milliseconds(min(requestLimit, batchLimit))
        settings.warnings = warnings + reader.warnings
        return (settings, settings.warnings)
    }

    /// What is wrong with `text` as a collector URL, or `nil`.
    static func problem(withURL text: String) -> String? {
        guard text.utf8.count <= longestURL else { return "is longer than \(longestURL) bytes" }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            return "contains a space or a control character"
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return "is not a URL; expected e.g. http://127.0.0.1:4318"
        }
        guard scheme == "http" || scheme == "https" else { return "uses scheme '\(scheme)'; only http and https are accepted" }
        guard let host = components.host, !host.isEmpty else { return "has no host" }
        guard components.query == nil, components.fragment == nil else { return "must not carry a query or fragment" }
        return nil
    }

    private static func trimmedBase(_ text: String) -> String {
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}

/// Reads `OTEL_*` values, noting each it had to ignore.
private struct EnvironmentReader {
    let environment: [String: String]
    var warnings: [String] = []

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
