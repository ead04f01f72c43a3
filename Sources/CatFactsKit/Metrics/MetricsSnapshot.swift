/// The metrics at one moment, as `cf_metrics` hands them out (keys in include/catfacts.h).
public struct MetricsSnapshot: Sendable, Equatable, Encodable {
    public var endpoints: [EndpointMetrics]
    public var system: SystemInfo
    public var memory: MemoryUsage
    /// Whether the last request reached the server.
    public var online: Bool
    public var collectedAt: Timestamp
    /// The cache's state; `nil` when the client has no cache (`cache_max_bytes` 0).
    public var cache: CacheState? = nil
    /// The OTLP exporter's figures; `nil` when the client does not export.
    public var export: ExportState? = nil

    enum CodingKeys: String, CodingKey {
        case endpoints, device, os, app, memory, online, collectedAt = "collected_at", cache, export
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(endpoints, forKey: .endpoints)
        try c.encode(system.device, forKey: .device)
        try c.encode(system.os, forKey: .os)
        try c.encode(system.app, forKey: .app)
        try c.encode(memory, forKey: .memory)
        try c.encode(online, forKey: .online)
        try c.encode(collectedAt.iso8601, forKey: .collectedAt)
        // null rather than left out when there is no cache: every key is always there.
        try c.encode(cache, forKey: .cache)
        try c.encode(export, forKey: .export)
    }

    /// The snapshot as UTF-8 JSON.
    public func json() -> String { JSONOutput.string(self) }
}
