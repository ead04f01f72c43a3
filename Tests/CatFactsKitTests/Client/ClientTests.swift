import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("The client against the mock serving the bundled catalog")
struct ClientTests {
    @Test func aPageOfBreedsIsTheCatalogsSlice() async throws {
        try await withMock { client, _ in
            let page = try await client.breeds(page: 2, limit: 5)
            #expect(page.items == Array(BundledCatalog.breeds[5..<10]))
            #expect(page.number == 2)
            #expect(page.perPage == 5)
            #expect(page.total == BundledCatalog.breeds.count)
            #expect(page.lastPage == (BundledCatalog.breeds.count + 4) / 5)
        }
    }

    @Test func walkingEveryPageGivesEveryBreedOnce() async throws {
        try await withMock { client, _ in
            var names: [String] = []
            var page = 1
            while true {
                let result = try await client.breeds(page: page, limit: 30)
                names += result.items.map(\.breed)
                if page >= result.lastPage { break }
                page += 1
            }
            #expect(names == BundledCatalog.breeds.map(\.breed))
        }
    }

    @Test func maxLengthFiltersFacts() async throws {
        try await withMock { client, _ in
            let page = try await client.facts(page: 1, limit: 1000, maxLength: 60)
            let expected = BundledCatalog.facts(maxLength: 60)
            #expect(page.total == expected.count)
            #expect(page.items == expected)
            #expect(page.items.allSatisfy { $0.length <= 60 })
            let fact = try await client.randomFact(maxLength: 60)
            #expect(expected.contains(fact))
        }
    }

    @Test func unicodeFactsSurviveTheRoundTrip() async throws {
        try await withMock { client, _ in
            let page = try await client.facts(page: 1, limit: 1000)
            #expect(page.items == BundledCatalog.facts)
            #expect(page.items.contains { $0.text.unicodeScalars.contains { !$0.isASCII } })
        }
    }

    @Test func aSyntheticMillionBreedCatalogPagesDeep() async throws {
        try await withMock({ $0.breeds = 1_000_000 }) { client, _ in
            let page = try await client.breeds(page: 40_000, limit: 25)
            #expect(page.total == 1_000_000)
            #expect(page.lastPage == 40_000)
            #expect(page.items.count == 25)
            let first = try await client.breeds(page: 1, limit: 25)
            #expect(Set(first.items.map(\.breed)).isDisjoint(with: page.items.map(\.breed)))
        }
    }

    #if os(Linux)
    /// The C face's interrupt watcher (a thread named cf-interrupt) is for blocking C calls
    /// and lives in CatFactsC: a Swift client, whatever it does, never starts it.
    @Test func aSwiftClientStartsNoInterruptWatcher() async throws {
        try await withMock { client, _ in
            _ = try await client.breeds(page: 1, limit: 2)
            _ = try await client.randomFact()
            let list = try client.breedList()
            _ = await list.wait(for: 0, timeout: hangBound)
            list.close()
            let names = Self.threadNames()
            #expect(!names.isEmpty)
            #expect(!names.contains("cf-interrupt"))
        }
    }

    /// The names of this process's threads (`/proc/self/task/TID/comm`).
    private static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            // A thread that ended while the folder was read has no file left.
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
    #endif
}
