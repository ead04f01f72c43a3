import ArgumentParser
import CatFactsKit
import Foundation

/// Walks every row of a list as fast as it loads and reports the process's peak memory:
/// run once with 1k rows and once with 1M, the two peaks should differ by little, since
/// the pager holds `max_cached_items`, never the list.
struct WalkBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walk", abstract: "Peak memory of a walk over every row.")

    @Option(help: "Rows in the list.") var rows = 1_000_000
    @Option(help: "Page size.") var pageSize = 50
    @Option(help: "Max cached items.") var maxCached = 500
    @Option(help: "A running mock's URL (started with --breeds ROWS); default: one in-process.") var baseURL: String?
    @Option(help: "Mock latency per request, ms.") var latencyMs = 0
    @Option(help: "The client's cache cap in bytes (0: no cache); default: the library's.") var cacheMaxBytes: Int?

    func run() async throws {
        let before = MemoryUsage.current()
        try await withBenchMock(baseURL: baseURL, breeds: rows, latencyMs: latencyMs, cacheMaxBytes: cacheMaxBytes) { client in
            let list = try client.breedList(PagingOptions(pageSize: pageSize, maxCachedItems: maxCached))
            let clock = ContinuousClock()
            let start = clock.now
            var missing = 0
            for index in 0..<rows {
                if list.item(at: index).item == nil,
                   await list.wait(for: index, timeout: .seconds(30)).item == nil { missing += 1 }
            }
            let after = MemoryUsage.current()
            report(["rows": Double(rows), "page_size": Double(pageSize), "max_cached_items": Double(maxCached),
                    "missing": Double(missing), "seconds": (clock.now - start).seconds,
                    "rss_start_bytes": Double(before.residentBytes), "rss_end_bytes": Double(after.residentBytes),
                    "peak_rss_bytes": Double(after.peakResidentBytes),
                    "requests": Double(client.metrics.endpoints().first?.requests ?? 0)])
        }
    }
}
