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
            let avg = try #require(breeds.avgMs), p50 = try #require(breeds.p50Ms), p95 = try #require(breeds.p95Ms)
            let p99 = try #require(breeds.p99Ms), min = try #require(breeds.minMs), max = try #require(breeds.maxMs)
            #expect(avg >= 50 && avg <= wallMs / 20, "avg \(avg) ms of \(wallMs) ms in all")
            #expect(p50 >= 50 && breeds.totalMs <= wallMs, "p50 \(p50) ms, total \(breeds.totalMs) ms")
            #expect(min >= 50)
            #expect(min <= p50 && p50 <= p95)
            #expect(p95 <= p99 && p99 <= max * 1.001)
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

    @Test func anEndpointWhoseEveryRequestGotNoResponseHasNoTimesNotZero() async throws {
        // The connection drops twice (no response to time), then a random fact is answered.
        try await withMock({ $0.failFirst = 2; $0.faults = [.reset] }, options: { $0.cacheMaxBytes = 0 }) { client, _ in
            for _ in 0..<2 { #expect(await caught { try await client.facts(limit: 5) }?.status == .network) }
            _ = try await client.randomFact()
            let endpoints = client.metrics.endpoints()
            #expect(endpoints.map(\.endpoint) == ["/fact", "/facts"])
            let facts = endpoints[1]
            #expect(facts.requests == 2 && facts.errors == 2)
            #expect([facts.avgMs, facts.lastMs, facts.minMs, facts.maxMs, facts.p50Ms, facts.p95Ms, facts.p99Ms]
                    .allSatisfy { $0 == nil })
            #expect(endpoints[0].avgMs != nil && endpoints[0].p99Ms != nil)
            let json = client.metrics.snapshot().json()
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let written = try #require((object["endpoints"] as? [[String: Any]])?.last)
            #expect(written["endpoint"] as? String == "/facts")
            for key in ["avg_ms", "last_ms", "min_ms", "max_ms", "p50_ms", "p95_ms", "p99_ms"] {
                #expect(written[key] is NSNull, "\(key) is \(String(describing: written[key])), not null")
            }
            #expect(written["requests"] as? Int == 2)
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
