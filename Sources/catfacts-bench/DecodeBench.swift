import ArgumentParser
import CatFactsFoundation
import CatFactsKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decode throughput of one page body: the library's decoder (`ScanningPageDecoder`, what
/// the client runs on every page), its `JSONDecoder`-based one (`FoundationPageDecoder`),
/// Foundation's `JSONDecoder` into a plain `Codable` struct and `JSONSerialization` into
/// dictionaries, all on the same bytes. MB/s of body per second of this thread's CPU time, so
/// that other work on a shared machine does not slow the figures (bench/run times `json.loads`
/// the same way).
struct DecodeBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode", abstract: "MB/s of a page body turned into breeds.")

    @Option(help: "A body to decode (e.g. a saved /breeds?page=1&limit=1000).") var file: String?
    @Option(help: "Else fetch page 1 of this mock's /breeds at --limit.") var baseURL: String?
    @Option(help: "Items per page when fetching.") var limit = 1000
    @Option(help: "Seconds to spend on each decoder (after one warm-up decode).") var seconds = 1.0
    @Flag(help: "Run only the library's decoder and writer, for a profiler (perf record).") var libraryOnly = false

    /// What a script writer would declare for the page, with no trimming or checks.
    struct PlainBreed: Codable { var breed: String; var country: String?; var origin: String?; var coat: String?; var pattern: String? }
    struct PlainPage: Codable {
        var current_page: Int; var last_page: Int; var total: Int; var data: [PlainBreed]  // per_page: the API sends a string
    }

    func run() async throws {
        let body: [UInt8]
        if let file {
            body = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } else if let baseURL, let url = URL(string: "\(baseURL)/breeds?page=1&limit=\(limit)") {
            body = Array(try await URLSession.shared.data(from: url).0)
        } else {
            throw ValidationError("pass --file or --base-url")
        }
        let data = Data(body)
        let decoder = ScanningPageDecoder()
        var items = 0
        // The client's path: the page into one buffer (its arena), no Breed values made.
        var fast = false
        let library = try time {
            let page = try decoder.decodeBreedArena(from: body)
            items = page.arena.count
            fast = page.fastPath
        }
        // The same, and then every breed made as a Swift value (what `page.items` costs).
        let values = try time { items = try decoder.decodePage(Breed.self, from: body).items.count }
        // The other half of cf_breeds_page: the decoded page written as the JSON C receives.
        let decoded = try decoder.decodePage(Breed.self, from: body)
        let page = Page(number: decoded.currentPage, lastPage: decoded.lastPage, perPage: decoded.perPage,
                        total: decoded.total, items: decoded.items, source: .network, fetchedAt: .now)
        var written = 0
        let encode = try time { written = JSONOutput.string(page).utf8.count }
        if libraryOnly {
            return report(["body_bytes": Double(body.count), "library_mb_per_s": Double(body.count) / 1e6 / library,
                           "library_values_mb_per_s": Double(body.count) / 1e6 / values, "fast_path": fast ? 1 : 0,
                           "library_write_mb_per_s": Double(written) / 1e6 / encode])
        }
        let foundation = FoundationPageDecoder()
        var foundationItems: [Breed] = []
        let libraryFoundation = try time { foundationItems = try foundation.decodePage(Breed.self, from: body).items }
        guard try decoder.decodePage(Breed.self, from: body).items == foundationItems else {
            throw ValidationError("the scanning and Foundation decoders disagree")
        }
        var plainItems = 0
        let plain = try time { plainItems = try JSONDecoder().decode(PlainPage.self, from: data).data.count }
        let serialization = try time {
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            _ = (object?["data"] as? [Any])?.count
        }
        guard items == plainItems, items > 0 else { throw ValidationError("decoders disagree: \(items) vs \(plainItems)") }
        let megabytes = Double(body.count) / 1e6
        report(["body_bytes": Double(body.count), "items": Double(items),
                "library_mb_per_s": megabytes / library, "library_ms_per_page": library * 1000, "fast_path": fast ? 1 : 0,
                "library_values_mb_per_s": megabytes / values, "library_values_ms_per_page": values * 1000,
                "library_foundation_mb_per_s": megabytes / libraryFoundation,
                "library_write_mb_per_s": Double(written) / 1e6 / encode, "library_write_ms_per_page": encode * 1000,
                "jsondecoder_plain_mb_per_s": megabytes / plain, "jsondecoder_plain_ms_per_page": plain * 1000,
                "jsonserialization_mb_per_s": megabytes / serialization,
                "jsonserialization_ms_per_page": serialization * 1000])
    }

    /// CPU seconds per call of `body`, over at least `seconds` of this thread's CPU time after
    /// one warm-up (the loop runs on one thread: nothing in it suspends).
    func time(_ body: () throws -> Void) throws -> Double {
        try body()
        let start = Self.threadCPUSeconds()
        var calls = 0
        repeat {
            try body()
            calls += 1
        } while Self.threadCPUSeconds() - start < seconds
        return (Self.threadCPUSeconds() - start) / Double(calls)
    }

    /// The calling thread's CPU time (user and system), in seconds.
    static func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
