/// An attribute as OTLP's JSON writes it: `{"key":"...","value":{"stringValue":"..."}}`.
struct OTLPAttribute: Sendable, Equatable, Encodable {
    let key: String
    let value: OTLPValue

    init(_ key: String, _ value: OTLPValue) {
        self.key = key
        self.value = value
    }
}

/// OTLP's `AnyValue`, the kinds the library sends. 64-bit integers are decimal strings, as the
/// OTLP JSON mapping writes them (a JSON number would lose precision past 2^53 in many readers).
enum OTLPValue: Sendable, Equatable, Encodable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)

    private enum CodingKeys: String, CodingKey { case stringValue, intValue, doubleValue, boolValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .string(let text): try container.encode(text, forKey: .stringValue)
        case .int(let number): try container.encode(String(number), forKey: .intValue)
        case .double(let number): try container.encode(number, forKey: .doubleValue)
        case .bool(let flag): try container.encode(flag, forKey: .boolValue)
        }
    }
}

/// The resource and scope every request names: who sends (`service.name`, the host, the
/// library) and the instrumentation scope `catfacts` with the library's version.
struct OTLPResource: Sendable, Encodable {
    let attributes: [OTLPAttribute]

    /// The scope of every span and metric.
    static let scope = OTLPScope(name: "catfacts", version: LibraryVersion.string)

    /// The resource for `serviceName` and the `OTEL_RESOURCE_ATTRIBUTES` pairs `extra` (which
    /// may not override the SDK's own keys), on this host.
    static func current(serviceName: String, extra: [(String, String)]) -> OTLPResource {
        let system = SystemInfo.current
        let own: [OTLPAttribute] = [
            OTLPAttribute("service.name", .string(serviceName)),
            OTLPAttribute("host.arch", .string(hostArch(system.device.arch))),
            OTLPAttribute("os.type", .string(osType)),
            OTLPAttribute("os.version", .string(system.os.kernel)),
            OTLPAttribute("os.name", .string(system.os.name)),
            OTLPAttribute("telemetry.sdk.name", .string("catfacts")),
            OTLPAttribute("telemetry.sdk.language", .string("swift")),
            OTLPAttribute("telemetry.sdk.version", .string(LibraryVersion.string)),
        ]
        let taken = Set(own.map(\.key))
        return OTLPResource(attributes: own + extra.filter { !taken.contains($0.0) }.map { OTLPAttribute($0.0, .string($0.1)) })
    }

    /// The semantic conventions' `host.arch` values for the names `uname` gives.
    static func hostArch(_ machine: String) -> String {
        switch machine {
        case "x86_64": "amd64"
        case "aarch64", "arm64": "arm64"
        case "i386", "i686": "x86"
        case "ppc64le", "ppc64": "ppc64"
        case "s390x": "s390x"
        default: machine
        }
    }

    #if os(Linux)
    static let osType = "linux"
    #else
    static let osType = "darwin"
    #endif
}

/// OTLP's `InstrumentationScope`.
struct OTLPScope: Sendable, Encodable {
    let name: String
    let version: String
}
