@testable import CatFactsKit
import Foundation
import Testing

@Suite("Trace context: the traceparent parser and the header on each attempt")
struct TraceParentTests {
    static let valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test func aValidValueIsReadAndWrittenBack() throws {
        let parent = try TraceParent(parsing: Self.valid)
        #expect(parent.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(parent.parentID == "00f067aa0ba902b7")
        #expect(parent.flags == 1)
        #expect(parent.header == Self.valid)
        // A later version may carry more fields after a dash.
        #expect(try TraceParent(parsing: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-extra").flags == 0)
    }

    @Test func newIdsAreLowercaseHexOfTheirLengthEachDifferentAndTheParserTakesThem() throws {
        let traces = (0..<1000).map { _ in TraceIDs.traceID() }
        let spans = (0..<1000).map { _ in TraceIDs.spanID() }
        let hex = Set("0123456789abcdef")
        #expect(traces.allSatisfy { $0.count == 32 && $0.allSatisfy(hex.contains) })
        #expect(spans.allSatisfy { $0.count == 16 && $0.allSatisfy(hex.contains) })
        #expect(Set(traces).count == 1000 && Set(spans).count == 1000)
        // Every digit turns up in every position (the nibbles are all written, high to low).
        for position in 0..<32 { #expect(Set(traces.map { Array($0)[position] }) == hex, "digit \(position)") }
        let parent = try TraceParent(parsing: "00-\(traces[0])-\(spans[0])-01")
        #expect(parent.traceID == traces[0] && parent.parentID == spans[0])
        var writer = ProtobufWriter()
        writer.hexBytes(1, traces[0])
        writer.hexBytes(2, spans[0])
        #expect(writer.bytes.count == 2 + 16 + 2 + 8 && writer.bytes[0...1] == [0x0A, 16] && writer.bytes[18...19] == [0x12, 8])
    }

    @Test(arguments: [
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0", "55"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-011", "55"),
        ("", "version"),
        ("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "trace id is not 32 lowercase hex"),
        ("00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01", "trace id is not 32 lowercase hex"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902bx-01", "parent id is not 16 lowercase hex"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-zz", "flags"),
        ("00-00000000000000000000000000000000-00f067aa0ba902b7-01", "trace id is all zeros"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "parent id is all zeros"),
        ("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "version ff is forbidden"),
        ("00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01", "separated by '-'"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nX: y", "55"),
    ])
    func aMalformedValueIsRefusedSayingWhy(text: String, why: String) {
        #expect {
            _ = try TraceParent(parsing: text)
        } throws: { error in
            guard case .argument(let message) = error as? CatFactsError else { return false }
            return message.contains(why) && message.hasPrefix("traceparent '") && !message.contains("\r\n")
        }
    }

    @Test func eachAttemptCarriesTheHostsTraceIDAndItsOwnSpanID() async throws {
        let transport = ScriptedTransport([.success(HTTPResponse(status: 503, body: Array(#"{"message":"x"}"#.utf8))),
                                           .success(HTTPResponse(status: 200, body: Array(Fixtures.randomFact.utf8)))])
        var options = ClientOptions(baseURL: "http://127.0.0.1:9", retry: RetryPolicy(retries: 1, baseDelay: .milliseconds(1)))
        options.otlpEndpoint = ""
        let client = try CatFactsClient(options: options, transport: transport)
        try client.setTraceParent(Self.valid)
        _ = try await client.randomFact()
        let headers = transport.requests.map { $0.headers["traceparent"] }
        #expect(headers.count == 2)
        let ids = try headers.map { try TraceParent(parsing: try #require($0)) }
        #expect(ids.allSatisfy { $0.traceID == "4bf92f3577b34da6a3ce929d0e0e4736" && $0.flags == 1 })
        #expect(Set(ids.map(\.parentID)).count == 2 && !ids.map(\.parentID).contains("00f067aa0ba902b7"))

        // A malformed value leaves the trace parent as it was; nil clears it: no header then.
        #expect(throws: CatFactsError.self) { try client.setTraceParent("00-zz") }
        #expect(client.traceParent?.header == Self.valid)
        try client.setTraceParent(nil)
        _ = try await client.randomFact()
        #expect(transport.requests.count == 3 && transport.requests[2].headers["traceparent"] == nil)
    }
}

@Suite("OTLP JSON: what the exporter posts")
struct OTLPEncodingTests {
    static let server = ServerIdentity(baseURL: WebAddress(string: "http://127.0.0.1:8106")!)

    private func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func spansHaveHexIDsCamelCaseKeysAndIntegerEnums() throws {
        let trace = CallTrace(endpoint: "/breeds", context: TraceContext(parent: try TraceParent(parsing: TraceParentTests.valid)))
        let first = trace.beginAttempt()
        trace.end(first.spanID, status: 503, error: .http(status: 503, message: "busy", url: "u"), seconds: 0.01)
        trace.noteRetryWait(seconds: 0.25)
        let second = trace.beginAttempt()
        trace.end(second.spanID, status: 200, error: nil, seconds: 0.02)
        trace.noteSource(.network)
        let spans = trace.spans(failure: nil, server: Self.server)
        #expect(spans.count == 3)
        let body = try object(OTLPTraceRequest(resource: OTLPResource(attributes: []), spans: spans).json())
        let resourceSpans = try #require(body["resourceSpans"] as? [[String: Any]])
        let scopeSpans = try #require(resourceSpans.first?["scopeSpans"] as? [[String: Any]])
        #expect((scopeSpans.first?["scope"] as? [String: String]) == ["name": "catfacts", "version": LibraryVersion.string])
        let written = try #require(scopeSpans.first?["spans"] as? [[String: Any]])
        let call = written[0], retried = written[1], answered = written[2]
        #expect(call["traceId"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(call["parentSpanId"] as? String == "00f067aa0ba902b7")
        #expect(call["name"] as? String == "GET /breeds")
        #expect(call["kind"] as? Int == 3)
        #expect((call["spanId"] as? String)?.count == 16)
        #expect(retried["parentSpanId"] as? String == call["spanId"] as? String)
        #expect(retried["spanId"] as? String == first.spanID)
        #expect(first.traceparent == "00-4bf92f3577b34da6a3ce929d0e0e4736-\(first.spanID)-01")
        #expect((retried["status"] as? [String: Any])?["code"] as? Int == 2)
        #expect((answered["status"] as? [String: Any])?["code"] as? Int == 0)
        #expect(UInt64(try #require(call["startTimeUnixNano"] as? String)) ?? 0 > 1_600_000_000_000_000_000)
        func attributes(_ span: [String: Any]) -> [String: [String: Any]] {
            Dictionary(uniqueKeysWithValues: ((span["attributes"] as? [[String: Any]]) ?? []).compactMap { item in
                (item["key"] as? String).map { ($0, (item["value"] as? [String: Any]) ?? [:]) }
            })
        }
        #expect(attributes(call)["catfacts.source"]?["stringValue"] as? String == "network")
        #expect(attributes(call)["server.port"]?["intValue"] as? String == "8106")
        #expect(attributes(retried)["http.response.status_code"]?["intValue"] as? String == "503")
        #expect(attributes(retried)["error.type"]?["stringValue"] as? String == "503")
        #expect(attributes(retried)["catfacts.retry_wait_s"]?["doubleValue"] as? Double == 0.25)
        #expect(attributes(answered)["error.type"] == nil)
    }

    @Test func theHistogramCountsEachTimeInItsExplicitBucket() throws {
        let histogram = DurationHistogram()
        let series = DurationHistogram.Series(endpoint: "/breeds", statusCode: 200, errorType: nil)
        // On a bound counts in that bound's bucket; just past it, in the next; past 10 s, in the last.
        for seconds in [0.001, 0.005, 0.0051, 0.1, 0.75, 10, 11, 60] { histogram.record(series, seconds: seconds) }
        histogram.record(.init(endpoint: "/fact", statusCode: nil, errorType: "network"), seconds: 0.02)
        let figures = [EndpointMetrics(endpoint: "/breeds", requests: 8, errors: 0, avgMs: 0, lastMs: 0, minMs: 0, maxMs: 0,
                                       p50Ms: 0, p95Ms: 0, p99Ms: 0, bytes: 4096, cacheHits: 2, retries: 1)]
        let payload = MetricsPayload(resource: OTLPResource(attributes: []))
        let body = try object(payload.request(server: Self.server, start: 1, endpoints: figures, durations: histogram.snapshot(),
                                              memoryBytes: 1234, now: 2).json())
        let resourceMetrics = try #require(body["resourceMetrics"] as? [[String: Any]])
        let scopeMetrics = try #require(resourceMetrics.first?["scopeMetrics"] as? [[String: Any]])
        let metrics = try #require(scopeMetrics.first?["metrics"] as? [[String: Any]])
        #expect(metrics.map { $0["name"] as? String } == ["http.client.request.duration", "catfacts.client.requests",
                                                          "catfacts.client.errors", "catfacts.client.retries",
                                                          "catfacts.client.cache_hits", "catfacts.client.received_bytes",
                                                          "process.memory.usage"])
        let duration = try #require(metrics[0]["histogram"] as? [String: Any])
        #expect(metrics[0]["unit"] as? String == "s")
        #expect(duration["aggregationTemporality"] as? Int == 2)
        let points = try #require(duration["dataPoints"] as? [[String: Any]])
        #expect(points.count == 2)
        let breeds = points[0]
        #expect(breeds["count"] as? String == "8")
        #expect(breeds["bucketCounts"] as? [String] == ["2", "1", "0", "0", "0", "1", "0", "0", "1", "0", "0", "0", "0", "1", "2"])
        #expect(breeds["explicitBounds"] as? [Double] == DurationHistogram.bounds)
        #expect(abs((breeds["sum"] as? Double ?? 0) - 81.8611) < 1e-9)
        #expect((points[1]["bucketCounts"] as? [String])?[2] == "1")
        let requests = try #require((metrics[1]["sum"] as? [String: Any])?["dataPoints"] as? [[String: Any]])
        #expect(requests.first?["asInt"] as? String == "8")
        #expect((metrics[1]["sum"] as? [String: Any])?["isMonotonic"] as? Bool == true)
        #expect(metrics[5]["unit"] as? String == "By")
        let memory = try #require((metrics[6]["gauge"] as? [String: Any])?["dataPoints"] as? [[String: Any]])
        #expect(memory.first?["asInt"] as? String == "1234")
    }
}

@Suite("OTLP's protobuf encoding and gzip")
struct ProtobufTests {
    @Test func varintsFixedNumbersAndNestedMessagesAreWrittenAsTheWireFormatSays() {
        var writer = ProtobufWriter()
        writer.varint(1, 150)
        writer.fixed64(2, 1)
        writer.string(3, "")  // a default value: left out
        writer.message(4) { $0.bool(1, true) }
        writer.varint(5, -1)
        #expect(writer.bytes == [0x08, 0x96, 0x01, 0x11, 1, 0, 0, 0, 0, 0, 0, 0, 0x22, 0x02, 0x08, 0x01,
                                 0x28, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
    }

    @Test func aNestedMessageOfAnyLengthHasItsLengthInFrontAndWhatFollowsAfterIt() {
        for size in [0, 1, 127, 128, 300, 16_383, 16_384, 70_000] {
            var writer = ProtobufWriter()
            writer.varint(1, 1)
            writer.message(2) { nested in
                nested.message(3) { $0.string(4, String(repeating: "x", count: size)) }
            }
            writer.varint(5, 7)
            // The innermost field: key, length, text; around it two lengths, each a varint.
            func varint(_ value: Int) -> [UInt8] {
                var value = UInt64(value), out: [UInt8] = []
                while value >= 0x80 { out.append(UInt8(truncatingIfNeeded: value) | 0x80); value >>= 7 }
                return out + [UInt8(value)]
            }
            let text = size == 0 ? [] : [0x22] + varint(size) + [UInt8](repeating: 0x78, count: size)
            let inner = [0x1A] + varint(text.count) + text
            let expected = [0x08, 0x01, 0x12] + varint(inner.count) + inner + [0x28, 0x07]
            #expect(writer.bytes == expected, "a string of \(size) bytes")
        }
    }

    @Test func idsThatAreNotHexOfEvenLengthAreLeftOut() {
        var writer = ProtobufWriter()
        writer.hexBytes(1, "0g")
        writer.hexBytes(2, "abc")
        writer.hexBytes(3, "")
        writer.hexBytes(4, "0A")
        #expect(writer.bytes == [0x22, 0x01, 0x0A])
    }

    @Test func aSpanCarriesItsIdsAsBytesAndItsTraceState() {
        let span = SpanRecord(traceID: "0102", spanID: "ff", parentID: nil, name: "n", start: 0, end: 0, attributes: [],
                              failure: nil, traceState: "k=v")
        var writer = ProtobufWriter()
        span.write(into: &writer)
        #expect(Array(writer.bytes.prefix(12)) == [0x0A, 0x02, 0x01, 0x02, 0x12, 0x01, 0xFF, 0x1A, 0x03, 0x6B, 0x3D, 0x76])
    }

    @Test func gzipWritesAStreamThatStartsWithGzipsMagicAndShrinksRepeats() throws {
        let plain = [UInt8](repeating: 0x61, count: 10_000)
        let compressed = try #require(Gzip.compressed(plain))
        #expect(Array(compressed.prefix(2)) == [0x1F, 0x8B] && compressed.count < 200)
    }
}

@Suite("Export settings: the option and the OTEL_* environment")
struct ExportSettingsTests {
    @Test func theOptionWinsAndEmptyTurnsExportOff() throws {
        let environment = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"]
        #expect(try ExportSettings.resolve(option: "", environment: environment).0 == nil)
        let (settings, warnings) = try ExportSettings.resolve(option: "http://127.0.0.1:4318/", environment: environment)
        #expect(settings?.tracesURL == "http://127.0.0.1:4318/v1/traces")
        #expect(settings?.metricsURL == "http://127.0.0.1:4318/v1/metrics")
        #expect(settings?.endpoint == "http://127.0.0.1:4318")
        #expect(warnings.isEmpty)
        // A password in the URL is used, never shown.
        let secret = try ExportSettings.resolve(option: "https://user:s3cret@collector:4318", environment: [:]).0
        #expect(secret?.tracesURL == "https://user:s3cret@collector:4318/v1/traces")
        #expect(secret?.endpoint.contains("s3cret") == false)
        #expect(try ExportSettings.resolve(option: nil, environment: [:]).0 == nil)
        #expect(try ExportSettings.resolve(option: nil, environment: environment.merging(["OTEL_SDK_DISABLED": "true"]) { $1 }).0 == nil)
    }

    @Test(arguments: [("ftp://h:21", "scheme 'ftp'"), ("http://h:4318/\n", "control character"), ("collector", "not a URL"),
                      ("http://" + String(repeating: "a", count: 2100), "longer than 2048"), ("http://h/?q=1", "query")])
    func aBadOptionFailsTheClientNamingIt(option: String, why: String) {
        #expect {
            _ = try ExportSettings.resolve(option: option, environment: [:])
        } throws: { error in
            guard let error = error as? CatFactsError, case .invalidOption(.otlpEndpoint, let value, let problem) = error else { return false }
            return value.hasPrefix("'") && problem.contains(why) && error.description.hasPrefix("invalid argument: otlp_endpoint='")
        }
    }

    @Test func theEnvironmentIsReadAndBadValuesAreIgnoredWithAWarning() throws {
        let (settings, warnings) = try ExportSettings.resolve(option: nil, environment: [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:4318/custom/traces",
            "OTEL_EXPORTER_OTLP_HEADERS": "api-key=a%20b,broken",
            "OTEL_SERVICE_NAME": "shop",
            "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=test",
            "OTEL_METRIC_EXPORT_INTERVAL": "250",
            "OTEL_BSP_MAX_QUEUE_SIZE": "many",
            "OTEL_BSP_SCHEDULE_DELAY": "-5",
            "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "4",
            "OTEL_EXPORTER_OTLP_TIMEOUT": "300",
        ])
        let exported = try #require(settings)
        #expect(exported.tracesURL == "http://t:4318/custom/traces")
        #expect(exported.metricsURL == "http://c:4318/v1/metrics")
        #expect(exported.headers == ["api-key": "a b"])
        #expect(exported.serviceName == "shop")
        #expect(exported.resourceAttributes == [.init(key: "deployment.environment", value: "test")])
        #expect(exported.metricInterval == .milliseconds(250))
        #expect(exported.maxQueueSize == 2048)
        #expect(exported.scheduleDelay == .milliseconds(5000))
        #expect(exported.maxBatchSize == 4)
        #expect(exported.exportTimeout == .milliseconds(300))
        #expect(warnings == [
            "OTEL_EXPORTER_OTLP_HEADERS: 'broken' ignored: expected key=value (value percent-encoded, no control characters)",
            "OTEL_BSP_MAX_QUEUE_SIZE 'many' ignored: expected a whole number from 1 to 1000000; using 2048",
            "OTEL_BSP_SCHEDULE_DELAY '-5' ignored: expected a whole number from 0 to 86400000; using 5000",
        ])
        // A refused collector URL in the environment: export off for it, and a warning.
        let (off, why) = try ExportSettings.resolve(option: nil, environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "udp://c:4318"])
        #expect(off == nil)
        #expect(why == ["OTEL_EXPORTER_OTLP_ENDPOINT ignored: 'udp://c:4318' uses scheme 'udp'; only http and https are accepted"])
    }

    @Test func eachSignalTakesItsOwnProtocolCompressionHeadersAndTimeoutOverTheGeneralOnes() throws {
        let (settings, warnings) = try ExportSettings.resolve(option: "http://c:4318", environment: [
            "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
            "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "http/protobuf",
            "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
            "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "none",
            "OTEL_EXPORTER_OTLP_HEADERS": "a=1,b=2",
            "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "b=3",
            "OTEL_EXPORTER_OTLP_TIMEOUT": "700",
            "OTEL_EXPORTER_OTLP_METRICS_TIMEOUT": "900",
            "OTEL_METRIC_EXPORT_TIMEOUT": "800",
            "OTEL_EXPORTER_OTLP_INSECURE": "true",
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc",
        ])
        let exported = try #require(settings)
        let traces = try #require(exported.traces), metrics = try #require(exported.metrics)
        #expect((traces.encoding, traces.gzip, traces.headers, traces.timeout) == (.json, false, ["a": "1", "b": "3"], .milliseconds(700)))
        #expect((metrics.encoding, metrics.gzip, metrics.headers, metrics.timeout) == (.protobuf, true, ["a": "1", "b": "2"], .milliseconds(800)))
        #expect(warnings == [
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL 'grpc' ignored: the library sends http/protobuf or http/json",
            "OTEL_EXPORTER_OTLP_INSECURE ignored: it applies to OTLP/gRPC only (OTLP/HTTP follows the URL's scheme)",
        ])
    }

    @Test func serviceNameFollowsTheSpecificationsOrderAndExportersNoneTurnASignalOff() throws {
        let base = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_RESOURCE_ATTRIBUTES": "service.name=from-attributes"]
        #expect(try ExportSettings.resolve(option: nil, environment: base).0?.serviceName == "from-attributes")
        let named = base.merging(["OTEL_SERVICE_NAME": "named"]) { $1 }
        #expect(try ExportSettings.resolve(option: nil, environment: named).0?.serviceName == "named")
        let program = try #require(try ExportSettings.resolve(option: nil, environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c"]).0)
        #expect(program.serviceName.hasPrefix("unknown_service:") && program.serviceName.count > "unknown_service:".count)
        let noTraces = try #require(try ExportSettings.resolve(option: nil, environment: base.merging(["OTEL_TRACES_EXPORTER": "none"]) { $1 }).0)
        #expect(noTraces.traces == nil && noTraces.metricsURL == "http://c:4318/v1/metrics")
        let neither = base.merging(["OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "none"]) { $1 }
        #expect(try ExportSettings.resolve(option: "http://c:4318", environment: neither).0 == nil)
        let (zipkin, why) = try ExportSettings.resolve(option: nil, environment: base.merging(["OTEL_TRACES_EXPORTER": "zipkin"]) { $1 })
        #expect(zipkin?.traces != nil && why == ["OTEL_TRACES_EXPORTER 'zipkin' ignored in part: the library exports by otlp only (or none)"])
    }

    @Test func theQueueDropsTheOldestPastItsBoundAndCountsThem() {
        var queue = SpanQueue(capacity: 3)
        let spans = (0..<5).map { SpanRecord(traceID: "t", spanID: "s\($0)", parentID: nil, name: "n", start: 0, end: 0, attributes: [], failure: nil) }
        queue.append(Array(spans[0..<2]))
        let batch = queue.peek(2)
        queue.append(Array(spans[2..<5]))
        #expect(queue.dropped == 2 && queue.count == 3)
        // The batch under way lost its spans to the bound: delivering it removes none of the rest.
        queue.remove(through: batch?.last ?? -1)
        #expect(queue.count == 3)
        #expect(queue.peek(10)?.spans.map(\.spanId) == ["s2", "s3", "s4"])
    }

    @Test func aFullQueueKeepsTheNewestInOrderThroughThousandsOfDropsAndDeliveries() {
        // Spans leave from the front in bulk (the queue clears them away now and then): across
        // many clearings it agrees with a plain array doing the same, span for span and count
        // for count.
        var queue = SpanQueue(capacity: 100)
        var model: [(number: Int, owner: Int)] = []
        var modelDropped = 0
        func span(_ number: Int) -> SpanRecord {
            SpanRecord(traceID: "t", spanID: "s\(number)", parentID: nil, name: "n", start: 0, end: 0, attributes: [], failure: nil)
        }
        var made = 0
        for round in 0..<500 {
            queue.append([span(made), span(made + 1)], owner: round % 3)
            model += [(made, round % 3), (made + 1, round % 3)]
            made += 2
            if model.count > 100 {
                modelDropped += model.count - 100
                model.removeFirst(model.count - 100)
            }
            if round % 7 == 0, let batch = queue.peek(5) {
                #expect(batch.spans.map(\.spanId) == model.prefix(5).map { "s\($0.number)" })
                let delivered = queue.remove(through: batch.last)
                let modelDelivered = model.prefix(5)
                #expect(delivered == Dictionary(modelDelivered.map { ($0.owner, 1) }, uniquingKeysWith: +))
                model.removeFirst(modelDelivered.count)
            }
            #expect(queue.count == model.count && queue.dropped == modelDropped)
        }
        #expect(queue.peek(1000)?.spans.map(\.spanId) == model.map { "s\($0.number)" })
        for owner in 0..<3 { #expect(queue.queued(by: owner) == model.filter { $0.owner == owner }.count) }
        queue.remove(through: Int.max)
        #expect(queue.count == 0 && queue.peek(1) == nil)
    }

    @Test func anOwnerGoneLeavesNoCountBehindOnceItsSpansLeave() {
        var queue = SpanQueue(capacity: 2)
        let span = SpanRecord(traceID: "t", spanID: "s", parentID: nil, name: "n", start: 0, end: 0, attributes: [], failure: nil)
        queue.append([span, span], owner: 7)
        queue.forget(7)
        #expect(queue.ownersTracked == [7] && queue.queued(by: 7) == 2)
        // Its spans dropped past the bound after it left: counted in the total, not kept for it.
        queue.append([span, span], owner: 8)
        #expect(queue.dropped == 2 && queue.dropped(by: 7) == 0 && queue.dropped(by: 8) == 0)
        #expect(queue.ownersTracked == [8])
        queue.forget(8)
        queue.remove(through: Int.max)
        #expect(queue.ownersTracked.isEmpty && queue.count == 0)
    }

    /// Clients opened and closed by the hundred while one stays: the shared exporter keeps
    /// figures for the one attached only (it kept every departed client's before).
    @Test func theSharedExporterForgetsEachClientThatLeft() throws {
        // A collector nobody listens on: exports fail, spans pile up and drop.
        let (settings, _) = try ExportSettings.resolve(option: "http://127.0.0.1:9", environment: [:])
        let resolved = try #require(settings)
        let proxies = ProxyRule(option: "")
        let server = ServerIdentity(baseURL: WebAddress(string: "http://127.0.0.1:8106")!)
        let stay = try #require(ExporterRegistry.attach(settings: resolved, proxies: proxies, server: server) { [] })
        defer { stay.close() }
        let span = SpanRecord(traceID: "t", spanID: "s", parentID: nil, name: "n", start: 0, end: 0, attributes: [], failure: nil)
        for _ in 0..<300 {
            let client = try #require(ExporterRegistry.attach(settings: resolved, proxies: proxies, server: server) { [] })
            #expect(client.exporter === stay.exporter)
            client.exporter.enqueue(Array(repeating: span, count: 10), from: client.id)
            client.close()
        }
        // The queue's bound (2048 by default) holds at most 205 departed owners' spans.
        let tracked = stay.exporter.clientsTracked
        #expect(tracked <= 1 + (resolved.maxQueueSize + 9) / 10, "kept figures for \(tracked) clients")
        stay.exporter.enqueue(Array(repeating: span, count: resolved.maxQueueSize), from: stay.id)
        #expect(stay.exporter.clientsTracked == 1, "the one attached, counted once though both the map and the queue hold it")
    }
}
