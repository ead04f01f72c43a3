/// The export requests in OTLP's protobuf encoding (`application/x-protobuf`), the field
/// numbers of opentelemetry-proto (`collector/{trace,metrics}/v1`, `trace/v1`, `metrics/v1`,
/// `common/v1`, `resource/v1`). The same messages as the JSON encoding writes, field for field.
extension OTLPTraceRequest {
    /// `ExportTraceServiceRequest`.
    func protobuf() -> [UInt8] {
        var writer = ProtobufWriter()
        for resourceSpans in resourceSpans {
            writer.message(1) { resourceSpansWriter in
                resourceSpansWriter.message(1) { resourceSpans.resource.write(into: &$0) }
                for scopeSpans in resourceSpans.scopeSpans {
                    resourceSpansWriter.message(2) { scopeWriter in
                        scopeWriter.message(1) { scopeSpans.scope.write(into: &$0) }
                        for span in scopeSpans.spans { scopeWriter.message(2) { span.write(into: &$0) } }
                    }
                }
            }
        }
        return writer.bytes
    }
}

extension SpanRecord {
    /// `Span`.
    func write(into writer: inout ProtobufWriter) {
        writer.hexBytes(1, traceId)
        writer.hexBytes(2, spanId)
        writer.string(3, traceState ?? "")
        writer.hexBytes(4, parentSpanId ?? "")
        writer.string(5, name)
        writer.varint(6, kind)
        writer.fixed64(7, UInt64(startTimeUnixNano) ?? 0)
        writer.fixed64(8, UInt64(endTimeUnixNano) ?? 0)
        for attribute in attributes { writer.message(9) { attribute.write(into: &$0) } }
        writer.message(15) { statusWriter in
            statusWriter.string(2, status.message ?? "")
            statusWriter.varint(3, status.code)
        }
    }
}

extension OTLPMetricsRequest {
    /// `ExportMetricsServiceRequest`.
    func protobuf() -> [UInt8] {
        var writer = ProtobufWriter()
        for resourceMetrics in resourceMetrics {
            writer.message(1) { resourceWriter in
                resourceWriter.message(1) { resourceMetrics.resource.write(into: &$0) }
                for scopeMetrics in resourceMetrics.scopeMetrics {
                    resourceWriter.message(2) { scopeWriter in
                        scopeWriter.message(1) { scopeMetrics.scope.write(into: &$0) }
                        for metric in scopeMetrics.metrics { scopeWriter.message(2) { metric.write(into: &$0) } }
                    }
                }
            }
        }
        return writer.bytes
    }
}

extension OTLPMetricsRequest.Metric {
    /// `Metric`: its one kind of data, `gauge` (5), `sum` (7) or `histogram` (9).
    func write(into writer: inout ProtobufWriter) {
        writer.string(1, name)
        writer.string(2, description)
        writer.string(3, unit)
        if let gauge {
            writer.message(5) { gaugeWriter in
                for point in gauge.dataPoints { gaugeWriter.message(1) { point.write(into: &$0) } }
            }
        }
        if let sum {
            writer.message(7) { sumWriter in
                for point in sum.dataPoints { sumWriter.message(1) { point.write(into: &$0) } }
                sumWriter.varint(2, sum.aggregationTemporality)
                sumWriter.bool(3, sum.isMonotonic)
            }
        }
        if let histogram {
            writer.message(9) { histogramWriter in
                for point in histogram.dataPoints { histogramWriter.message(1) { point.write(into: &$0) } }
                histogramWriter.varint(2, histogram.aggregationTemporality)
            }
        }
    }
}

extension OTLPMetricsRequest.NumberPoint {
    /// `NumberDataPoint`, its value `as_int` (sfixed64).
    func write(into writer: inout ProtobufWriter) {
        writer.fixed64(2, startTimeUnixNano.flatMap { UInt64($0) } ?? 0)
        writer.fixed64(3, UInt64(timeUnixNano) ?? 0)
        writer.fixed64(6, UInt64(bitPattern: Int64(asInt) ?? 0))
        for attribute in attributes { writer.message(7) { attribute.write(into: &$0) } }
    }
}

extension OTLPMetricsRequest.HistogramPoint {
    /// `HistogramDataPoint`; `sum` is optional in the schema, so it is written even when zero.
    func write(into writer: inout ProtobufWriter) {
        writer.fixed64(2, UInt64(startTimeUnixNano) ?? 0)
        writer.fixed64(3, UInt64(timeUnixNano) ?? 0)
        writer.fixed64(4, UInt64(count) ?? 0)
        writer.presentDouble(5, sum)
        writer.packedFixed64(6, bucketCounts.map { UInt64($0) ?? 0 })
        writer.packedDouble(7, explicitBounds)
        for attribute in attributes { writer.message(9) { attribute.write(into: &$0) } }
    }
}

extension OTLPResource {
    /// `Resource`.
    func write(into writer: inout ProtobufWriter) {
        for attribute in attributes { writer.message(1) { attribute.write(into: &$0) } }
    }
}

extension OTLPScope {
    /// `InstrumentationScope`.
    func write(into writer: inout ProtobufWriter) {
        writer.string(1, name)
        writer.string(2, version)
    }
}

extension OTLPAttribute {
    /// `KeyValue`, its value an `AnyValue` (always written: an attribute has a value).
    func write(into writer: inout ProtobufWriter) {
        writer.string(1, key)
        writer.message(2) { valueWriter in
            switch value {
            case .string(let text): valueWriter.forcedString(1, text)
            case .bool(let flag): valueWriter.forcedVarint(2, flag ? 1 : 0)
            case .int(let number): valueWriter.forcedVarint(3, UInt64(bitPattern: Int64(number)))
            case .double(let number): valueWriter.presentDouble(4, number)
            }
        }
    }
}
