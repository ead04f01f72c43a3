import ArgumentParser
import CatFactsKit
import Foundation

/// A reader scrolling a long list at a steady pace: how often does it meet a row that is
/// still loading once the first page is in? The pager's goal is never.
struct ScrollBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll", abstract: "Rows found pending by a reader moving at a steady pace.")

    @Option(help: "Rows in the list.") var rows = 1_000_000
    @Option(help: "Rows the reader reads.") var read = 20_000
    @Option(help: "Reader's pace, rows per second.") var rate = 1000.0
    @Option(help: "A running mock's URL (started with --breeds ROWS); default: one in-process.") var baseURL: String?
    @Option(help: "Mock latency per request, ms.") var latencyMs = 50
    @Option(help: "Page size.") var pageSize = 50
    @Option(help: "Prefetch distance (default 2 × page size).") var prefetch: Int?
    @Option(help: "Max cached items.") var maxCached = 500

    func run() async throws {
        let options = PagingOptions(pageSize: pageSize, prefetchDistance: prefetch, maxCachedItems: maxCached)
        try await withBenchMock(baseURL: baseURL, breeds: rows, latencyMs: latencyMs) { client in
            let list = try client.breedList(options)
            _ = await list.wait(for: 0, timeout: .seconds(30))
            var pending = 0
            var mostHeld = 0
            let clock = ContinuousClock()
            let start = clock.now
            for index in 0..<min(read, rows) {
                try await clock.sleep(until: start + .seconds(Double(index) / rate))
                if case .pending = list.item(at: index), index >= pageSize { pending += 1 }
                mostHeld = max(mostHeld, list.heldItemCount)
            }
            let seconds = (clock.now - start).seconds
            report(["rows": Double(rows), "read": Double(min(read, rows)), "rate_rows_per_s": rate,
                    "latency_ms": Double(latencyMs), "page_size": Double(pageSize),
                    "pending_after_first_page": Double(pending), "most_items_held": Double(mostHeld),
                    "seconds": seconds, "requests": Double(client.metrics.endpoints().first?.requests ?? 0)])
        }
    }
}
