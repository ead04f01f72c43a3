import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("Metrics measured against the mock")
struct MetricsTests {
    @Test func injectedLatencyShowsInAverageAndMedian() async throws {
        let counting = ByteCountingTransport(CurlTransport())
        // No cache: the same pages are asked for again and must each be a request.
        try await withMock({ $0.latency = .milliseconds(50) }, options: { $0.cacheMaxBytes = 0 }, transport: counting) { client, _ in
            let started = ContinuousClock.now
            for page in 1...20 { _ = try await client.breeds(page: page % 4 + 1, limit: 10) }
            let elapsed = ContinuousClock.now - started
            let wallMs = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            let breeds = try #require(client.metrics.endpoints().first { $0.endpoint == "/breeds" })
            #expect(breeds.requests == 20)
            #expect(breeds.errors == 0)
            #expect(breeds.bytes == counting.bytes)
            // At least the injected latency; at most what the clock saw (the 20 requests ran
            // one after another), however busy the machine is.
            #expect(breeds.avgMs >= 50 && breeds.avgMs <= wallMs / 20, "avg \(breeds.avgMs) ms of \(wallMs) ms in all")
            #expect(breeds.p50Ms >= 50 && breeds.totalMs <= wallMs, "p50 \(breeds.p50Ms) ms, total \(breeds.totalMs) ms")
            #expect(breeds.minMs >= 50)
            #expect(breeds.minMs <= breeds.p50Ms && breeds.p50Ms <= breeds.p95Ms)
            #expect(breeds.p95Ms <= breeds.p99Ms && breeds.p99Ms <= breeds.maxMs * 1.001)
            #expect(breeds.cacheHits == 0)
            #expect(breeds.retries == 0)
        }
    }

    @Test func errorsAreCountedPerEndpointExactly() async throws {
        try await withMock({ $0.failFirst = 3; $0.faults = [.serverError] }, options: { $0.cacheMaxBytes = 0 }) { client, _ in
            for _ in 0..<5 { _ = await caught { try await client.facts(limit: 5) } }
            for _ in 0..<2 { _ = try await client.randomFact() }
            let endpoints = client.metrics.endpoints()
            #expect(endpoints.map(\.endpoint) == ["/fact", "/facts"])
            #expect(endpoints[1].requests == 5)
            #expect(endpoints[1].errors == 3)
            #expect(endpoints[0].requests == 2)
            #expect(endpoints[0].errors == 0)
        }
    }

    @Test func theListenerHearsEveryRequestWithItsEndpointAndStatus() async throws {
        let heard = Locked<[RequestEvent]>([])
        try await withMock({ $0.failFirst = 1; $0.faults = [.rateLimited] }) { client, _ in
            client.metrics.setListener { event in heard.withLock { $0.append(event) } }
            _ = await caught { try await client.breeds() }
            _ = try await client.breeds()
            _ = try await client.randomFact()
            client.metrics.setListener(nil)
            _ = try await client.randomFact()
        }
        let events = heard.withLock { $0 }
        #expect(events.map(\.endpoint) == ["/breeds", "/breeds", "/fact"])
        #expect(events.map(\.status) == [.rateLimited, .ok, .ok])
        #expect(events.allSatisfy { $0.milliseconds > 0 })
    }

    @Test func theSnapshotJSONHasTheContractKeys() async throws {
        try await withMock { client, _ in
            _ = try await client.breeds(limit: 3)
            let json = client.metrics.snapshot().json()
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["endpoints", "device", "os", "app", "memory", "online", "collected_at", "cache", "export"])
            let endpoint = try #require((object["endpoints"] as? [[String: Any]])?.first)
            #expect(Set(endpoint.keys) == ["endpoint", "requests", "errors", "avg_ms", "last_ms", "min_ms", "max_ms",
                                           "p50_ms", "p95_ms", "p99_ms", "bytes", "cache_hits", "retries"])
            #expect(endpoint["endpoint"] as? String == "/breeds")
            #expect(Set((object["device"] as? [String: Any])?.keys ?? [:].keys) == ["make", "model", "arch", "cpus"])
            #expect(Set((object["os"] as? [String: Any])?.keys ?? [:].keys) == ["name", "version", "kernel"])
            #expect(Set((object["app"] as? [String: Any])?.keys ?? [:].keys) == ["name", "library_version"])
            #expect(Set((object["memory"] as? [String: Any])?.keys ?? [:].keys) == ["resident_bytes", "peak_resident_bytes"])
            #expect(object["online"] as? Bool == true)
            let collected = try #require(object["collected_at"] as? String)
            #expect((try? Date(collected, strategy: .iso8601)) != nil)
        }
    }
}

@Suite("Prometheus text")
struct PrometheusTests {
    @Test func everyEndpointHasItsCountersAndAHistogramInSeconds() async throws {
        try await withMock({ $0.latency = .milliseconds(30) }) { client, _ in
            _ = try await client.breeds(limit: 3)
            _ = try await client.breeds(page: 2, limit: 3)
            _ = try await client.randomFact()
            let text = client.metrics.snapshot().prometheus()
            let lines = Set(text.split(separator: "\n").map(String.init))
            #expect(lines.contains(#"catfacts_requests_total{endpoint="/breeds"} 2"#))
            #expect(lines.contains(#"catfacts_requests_total{endpoint="/fact"} 1"#))
            #expect(lines.contains(#"catfacts_request_errors_total{endpoint="/breeds"} 0"#))
            #expect(lines.contains("# TYPE catfacts_request_duration_seconds histogram"))
            // 30 ms of latency: none within 25 ms, both within 10 s; cumulative buckets.
            #expect(lines.contains(#"catfacts_request_duration_seconds_bucket{endpoint="/breeds",le="0.025"} 0"#))
            #expect(lines.contains(#"catfacts_request_duration_seconds_bucket{endpoint="/breeds",le="10"} 2"#))
            #expect(lines.contains(#"catfacts_request_duration_seconds_bucket{endpoint="/breeds",le="+Inf"} 2"#))
            #expect(lines.contains(#"catfacts_request_duration_seconds_count{endpoint="/breeds"} 2"#))
            #expect(lines.contains(#"catfacts_request_duration_seconds_bucket{endpoint="/fact",le="+Inf"} 1"#))
            let sum = lines.first { $0.hasPrefix(#"catfacts_request_duration_seconds_sum{endpoint="/breeds"} "#) }
            let seconds = try #require(sum.flatMap { Double($0.split(separator: " ")[1]) })
            #expect(seconds >= 0.06 && seconds < 20, "two requests of 30 ms or more, in seconds: \(seconds)")
            #expect(lines.contains("catfacts_online 1"))
            #expect(!text.contains("milliseconds"))
            // Every sample line is `name{labels} value` or `name value`.
            for line in lines where !line.hasPrefix("#") {
                #expect(line.split(separator: " ").count >= 2 && Double(line.split(separator: " ").last ?? "") != nil, "\(line)")
            }
        }
    }
}
