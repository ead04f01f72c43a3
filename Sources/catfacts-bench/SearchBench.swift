import ArgumentParser
import CatFactsKit
import Foundation

/// Prefix search over the names of a large catalog: index build time and memory, then
/// time per query once built (goal: under 5 ms).
struct SearchBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Prefix search over a large catalog's names.")

    @Option(help: "Rows in the catalog.") var rows = 1_000_000
    @Option(help: "Queries to time.") var queries = 2000
    @Option(help: "A running mock's URL (started with --breeds ROWS); default: one in-process.") var baseURL: String?

    func run() async throws {
        try await withBenchMock(baseURL: baseURL, breeds: rows, latencyMs: 0) { client in
            let clock = ContinuousClock()
            var start = clock.now
            var breeds: [Breed] = []
            var number = 1
            while true {
                let page = try await client.breeds(page: number, limit: 1000)
                breeds += page.items
                if page.items.isEmpty || number >= page.lastPage { break }
                number += 1
            }
            let fetchSeconds = (clock.now - start).seconds
            let before = MemoryUsage.current().residentBytes
            start = clock.now
            let view = BreedCatalogView(breeds: breeds)
            let buildSeconds = (clock.now - start).seconds
            let indexBytes = MemoryUsage.current().residentBytes - before
            // Prefixes of real names (hits) and the same with an unlikely letter added (mostly misses).
            var random = SystemRandomNumberGenerator()
            let prefixes: [String] = (0..<queries).map { i in
                let name = breeds[Int.random(in: 0..<breeds.count, using: &random)].breed
                let stem = String(name.prefix(Int.random(in: 1...6, using: &random)))
                return i.isMultiple(of: 4) ? stem + "qx" : stem
            }
            var found = 0
            var slowest = Duration.zero
            start = clock.now
            for prefix in prefixes {
                let began = clock.now
                found += view.search(prefix: prefix, limit: 20).count
                slowest = max(slowest, clock.now - began)
            }
            let perQuery = (clock.now - start).seconds / Double(queries)
            report(["rows": Double(breeds.count), "fetch_seconds": fetchSeconds, "index_build_seconds": buildSeconds,
                    "index_bytes": Double(indexBytes), "queries": Double(queries), "ms_per_query": perQuery * 1000,
                    "slowest_query_ms": slowest.seconds * 1000, "results": Double(found)])
        }
    }
}
