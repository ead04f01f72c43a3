/// Turns the clients' figures into the metrics their exporter sends: the duration histogram,
/// one cumulative counter per figure of ``EndpointMetrics`` (per endpoint), and the process's
/// memory as a gauge. Clients sharing an exporter each keep their own streams: every point of
/// theirs carries `catfacts.client.id`, and its start is when that client began counting.
struct MetricsPayload {
    let resource: OTLPResource

    /// One client's figures as they are now.
    struct Client {
        /// `catfacts.client.id`; `nil` leaves the attribute out.
        let id: Int?
        let server: ServerIdentity
        /// When the client began counting: the start of its cumulative points.
        let start: UInt64
        let endpoints: [EndpointMetrics]
        let durations: [(DurationHistogram.Series, DurationHistogram.Counts)]

        func attributes(endpoint: String) -> [OTLPAttribute] {
            var attributes = server.attributes(endpoint: endpoint)
            if let id { attributes.append(OTLPAttribute("catfacts.client.id", .int(id))) }
            return attributes
        }
    }

    /// The request for one client's figures (no `catfacts.client.id`).
    func request(server: ServerIdentity, start: UInt64, endpoints: [EndpointMetrics],
                 durations: [(DurationHistogram.Series, DurationHistogram.Counts)],
                 memoryBytes: Int, now: UInt64) -> OTLPMetricsRequest {
        request(clients: [Client(id: nil, server: server, start: start, endpoints: endpoints, durations: durations)],
                memoryBytes: memoryBytes, now: now)
    }

    /// The request for `clients`' figures at `now`.
    func request(clients: [Client], memoryBytes: Int, now: UInt64) -> OTLPMetricsRequest {
        let time = String(now)
        typealias Metric = OTLPMetricsRequest.Metric
        let histogramPoints = clients.flatMap { client in
            client.durations.map { series, counts in
                var attributes = client.attributes(endpoint: series.endpoint)
                if let status = series.statusCode { attributes.append(OTLPAttribute("http.response.status_code", .int(status))) }
                if let type = series.errorType { attributes.append(OTLPAttribute("error.type", .string(type))) }
                return OTLPMetricsRequest.HistogramPoint(attributes: attributes, startTimeUnixNano: String(client.start),
                                                         timeUnixNano: time, count: String(counts.count), sum: counts.sum,
                                                         bucketCounts: counts.buckets.map(String.init),
                                                         explicitBounds: DurationHistogram.bounds)
            }
        }
        var metrics = [Metric(name: "http.client.request.duration", unit: "s",
                              description: "Duration of HTTP client requests, each attempt on its own.",
                              histogram: .init(dataPoints: histogramPoints))]
        let counters: [(String, String, String, (EndpointMetrics) -> Int)] = [
            ("catfacts.client.requests", "{request}", "Requests sent (first attempts and retries).", \.requests),
            ("catfacts.client.errors", "{request}", "Requests that failed.", \.errors),
            ("catfacts.client.retries", "{request}", "Requests sent again after a failure.", \.retries),
            ("catfacts.client.cache_hits", "{call}", "Calls answered from the cache.", \.cacheHits),
            ("catfacts.client.received_bytes", "By", "Body bytes received.", \.bytes),
        ]
        for (name, unit, description, figure) in counters {
            let points = clients.flatMap { client in
                client.endpoints.map { endpoint in
                    OTLPMetricsRequest.NumberPoint(attributes: client.attributes(endpoint: endpoint.endpoint),
                                                   startTimeUnixNano: String(client.start), timeUnixNano: time,
                                                   asInt: String(figure(endpoint)))
                }
            }
            metrics.append(Metric(name: name, unit: unit, description: description, sum: .init(dataPoints: points)))
        }
        metrics.append(Metric(name: "process.memory.usage", unit: "By", description: "The process's resident memory.",
                              gauge: .init(dataPoints: [.init(attributes: [], startTimeUnixNano: nil, timeUnixNano: time,
                                                              asInt: String(memoryBytes))])))
        return OTLPMetricsRequest(resource: resource, metrics: metrics)
    }
}

/// The server a client talks to, as the HTTP conventions name it on every point and span.
struct ServerIdentity: Sendable {
    let address: String
    let port: Int

    init(baseURL: WebAddress) {
        address = baseURL.host ?? ""
        port = baseURL.port ?? (baseURL.scheme.lowercased() == "https" ? 443 : 80)
    }

    /// The attributes of a request to `endpoint` (a path such as `/breeds`).
    func attributes(endpoint: String) -> [OTLPAttribute] {
        [OTLPAttribute("http.request.method", .string("GET")), OTLPAttribute("server.address", .string(address)),
         OTLPAttribute("server.port", .int(port)), OTLPAttribute("catfacts.endpoint", .string(endpoint))]
    }
}
