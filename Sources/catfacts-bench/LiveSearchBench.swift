import ArgumentParser
import CatFactsKit
import Foundation

/// Search as you type (``LiveSearch``, what `cf_search_*`, the Python search session and the
/// shell's live search are built on) against a slow server with a large catalog: a typist
/// enters words a key at a time, faster than the debounce; measured are the time from the
/// last keystroke of a word to its answer, the answers and requests per word, and the first
/// keystroke's wait while the catalog loads.
struct LiveSearchBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livesearch", abstract: "Keystroke to answer of a live search; requests per word.")

    @Option(help: "Rows in the catalog.") var rows = 1_000_000
    @Option(help: "Words typed (prefixes of random names, up to 8 letters).") var words = 20
    @Option(help: "Time between two keys of a word, ms (less than the debounce).") var keyMs = 60
    @Option(help: "The search's debounce, ms.") var debounceMs = 150
    @Option(help: "Mock latency per request, ms (for an in-process mock).") var latencyMs = 50
    @Option(help: "A running mock's URL (started with --breeds ROWS); default: one in-process.") var baseURL: String?

    /// An answer and when it arrived.
    private typealias Heard = (answer: LiveSearch.Answer, at: ContinuousClock.Instant)

    func validate() throws {
        guard rows > 0, words > 0, keyMs >= 0, debounceMs > keyMs else {
            throw ValidationError("rows and words must be positive and the debounce longer than the key interval")
        }
    }

    func run() async throws {
        try await withBenchMock(baseURL: baseURL, breeds: rows, latencyMs: latencyMs) { client in
            let clock = ContinuousClock()
            let (heard, delivery) = AsyncStream<Heard>.makeStream()
            let search = LiveSearch(client: client, debounce: .milliseconds(debounceMs), limit: 20) { answer in
                delivery.yield((answer, clock.now))
            }
            defer { search.close() }
            var answers = heard.makeAsyncIterator()

            func requests() -> Int { client.metrics.endpoints().first { $0.endpoint == "/breeds" }?.requests ?? 0 }

            // The first keystroke: the catalog loads (every page), then the answer.
            var typed = clock.now
            search.set("a")
            guard let first = await answers.next() else { throw ValidationError("no answer to the first keystroke") }
            let coldSeconds = (first.at - typed).seconds
            let coldRequests = requests()
            let catalog = try await client.breedCatalog()

            var random = SystemRandomNumberGenerator()
            var latencies: [Double] = []
            var answersHeard = 0, stale = 0, found = 0
            let requestsBefore = requests()
            var generation = first.answer.generation
            for _ in 0..<words {
                let name = catalog.breeds[Int.random(in: 0..<catalog.breeds.count, using: &random)].breed
                let word = Array(name.prefix(8))
                for (offset, _) in word.enumerated() {
                    if offset > 0 { try await clock.sleep(for: .milliseconds(keyMs)) }
                    typed = clock.now
                    search.set(String(word[...offset]))
                    generation += 1
                }
                // Exactly one answer, to the last text: anything else is stale or lost.
                guard let last = await answers.next() else { throw ValidationError("the search stopped answering") }
                answersHeard += 1
                if last.answer.generation != generation { stale += 1 }
                found += (try? last.answer.result.get().count) ?? 0
                latencies.append((last.at - typed).seconds * 1000)
            }
            let wordRequests = requests() - requestsBefore
            latencies.sort()
            report(["rows": Double(catalog.breeds.count), "words": Double(words), "key_ms": Double(keyMs),
                    "debounce_ms": Double(debounceMs), "latency_ms": Double(latencyMs),
                    "cold_seconds": coldSeconds, "cold_requests": Double(coldRequests),
                    "answer_ms_median": latencies[latencies.count / 2], "answer_ms_max": latencies[latencies.count - 1],
                    "answers_per_word": Double(answersHeard) / Double(words), "stale_answers": Double(stale),
                    "requests_per_word": Double(wordRequests) / Double(words), "results": Double(found)])
        }
    }
}
