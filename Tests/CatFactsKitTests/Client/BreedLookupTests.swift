import CatFactsKit
import CatFactsMock
import Testing

@Suite("Finding a breed by name")
struct BreedLookupTests {
    @Test func namesMatchCaseInsensitivelyAndIgnoreSurroundingBlanks() async throws {
        try await withMock { client, _ in
            let abyssinian = try await client.breed(named: "  abyssinian ")
            let aegean = try await client.breed(named: "AEGEAN")
            #expect(abyssinian == BundledCatalog.breeds[0])
            #expect(aegean == BundledCatalog.breeds[1])
        }
    }

    @Test func caseAndAccentsFoldAsInQueriesSoEverySpellingFindsOneBreed() async throws {
        let ragdoll = try #require(BundledCatalog.breeds.first { $0.breed == "Ragdoll" })
        // Walked for (first call), then known (the rest): both paths fold alike.
        try await withMock { client, _ in
            for spelling in ["Ragdóll", "RagDoll", "ragdoll", "RAGDO\u{301}LL", " Ragdoll "] {
                #expect(try await client.breed(named: spelling) == ragdoll, "\(spelling)")
            }
            var query = BreedQuery()
            query.search = "RAGDÓ"
            let search = try await client.query(query)
            #expect(search == .items([ragdoll]))
        }
        #expect(Set(["Ragdoll", "RagDoll", "Ragdóll", "ragdo\u{301}ll"].map(TextFolding.nameKey)) == ["ragdoll"])
    }

    @Test func aKnownBreedNeedsNoRequestAndCountsACacheHit() async throws {
        try await withMock { client, server in
            _ = try await client.breeds(page: 1, limit: 5)
            _ = try await client.breed(named: BundledCatalog.breeds[3].breed.uppercased())
            #expect(server.requestCount() == 1)
            let breeds = try #require(client.metrics.endpoints().first)
            #expect((breeds.requests, breeds.cacheHits) == (1, 1))
        }
    }

    @Test func anUnknownNameIsNotFoundAndTheWalkIsNotRepeated() async throws {
        try await withMock { client, server in
            #expect(await caught { try await client.breed(named: "No Such Cat") } == .notFound("no breed is named 'No Such Cat'"))
            let walked = server.requestCount()
            #expect(await caught { try await client.breed(named: "Another Missing Cat") }?.status == .notFound)
            #expect(server.requestCount() == walked)
        }
    }

    @Test func aLongUnknownNameIsQuotedCut() async throws {
        try await withMock { client, _ in
            let name = String(repeating: "x", count: 1_000_000)
            let error = await caught { try await client.breed(named: name) }
            #expect(error == .notFound("no breed is named '\(String(repeating: "x", count: 64))…'"))
        }
    }

    @Test func anEmptyNameIsAnArgumentError() async throws {
        try await withMock { client, server in
            #expect(await caught { try await client.breed(named: "   ") } == .argument("the breed name is empty"))
            #expect(server.requestCount() == 0)
        }
    }
}
