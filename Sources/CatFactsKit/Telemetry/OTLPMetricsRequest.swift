/// The body of a POST to `/v1/metrics`: `ExportMetricsServiceRequest`, cumulative
/// temporality (2) throughout, names and attributes from the HTTP semantic conventions.
struct OTLPMetricsRequest: Encodable {
    let resourceMetrics: [ResourceMetrics]

    struct ResourceMetrics: Encodable {
        let resource: OTLPResource
        let scopeMetrics: [ScopeMetrics]
    }

    struct ScopeMetrics: Encodable {
        let scope: OTLPScope
        let metrics: [Metric]
    }

    /// One metric: exactly one of `histogram`, `sum` and `gauge` is set.
    struct Metric: Encodable {
        let name: String
        let unit: String
        let description: String
        var histogram: Histogram?
        var sum: Sum?
        var gauge: Gauge?
    }

    struct Histogram: Encodable {
        let aggregationTemporality = 2
        let dataPoints: [HistogramPoint]
    }

    struct HistogramPoint: Encodable {
        let attributes: [OTLPAttribute]
        let startTimeUnixNano: String
        let timeUnixNano: String
        /// fixed64: a decimal string.
        let count: String
        let sum: Double
        let bucketCounts: [String]
        let explicitBounds: [Double]
    }

    struct Sum: Encodable {
        let aggregationTemporality = 2
        let isMonotonic = true
        let dataPoints: [NumberPoint]
    }

    struct Gauge: Encodable {
        let dataPoints: [NumberPoint]
    }

    struct NumberPoint: Encodable {
        let attributes: [OTLPAttribute]
        let startTimeUnixNano: String?
        let timeUnixNano: String
        /// sfixed64: a decimal string.
        let asInt: String
    }

    init(resource: OTLPResource, metrics: [Metric]) {
        resourceMetrics = [ResourceMetrics(resource: resource,
                                           scopeMetrics: [ScopeMetrics(scope: OTLPResource.scope, metrics: metrics)])]
    }

    /// The request as JSON text.
    func json() -> String { JSONOutput.encoded(self) }
}
