@testable import CatFactsKit
import Foundation
import Testing

@Suite("The prefix deny-list: saved with the cache file, cleared when the catalog changes")
struct DenyListStoreTests {
    @Test func aDenialSavedByOneClientAnswersTheNextWithoutSearching() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let catalog = try await withMock { _, server in
                var query = BreedQuery()
                query.search = "Xq"
                let first = try cachingClient(server.baseURL) { $0.cachePath = path }
                #expect(try await first.query(query) == .items([]))
                await first.flushDeniedPrefixes()
                let second = try cachingClient(server.baseURL) { $0.cachePath = path }
                let view = try await second.breedCatalog()
                // Denied before any search of this process's view: loaded from the file.
                #expect(view.denies("xqz"))
                #expect(view.search(prefix: "xqz").isEmpty)
                #expect(view.search(prefix: "XQ").isEmpty)
                #expect(!view.denies("Sia"))
                #expect(view.search(prefix: "Sia").map(\.breed) == ["Siamese"])
                #expect(second.cacheWarnings.isEmpty)
                return view.fingerprint
            }
            #expect(try deniedRows(path) == [[catalog, "xq"]])
        }
    }

    @Test func aChangedCatalogClearsTheSavedDenials() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let bundled = try await startMock()
            let synthetic = try await startMock { $0.breeds = 500 }
            defer { Task { await bundled.stop(); await synthetic.stop() } }
            let old = try cachingClient(bundled.baseURL) { $0.cachePath = path }
            #expect(try await old.breedCatalog().search(prefix: "Zz").isEmpty)
            await old.flushDeniedPrefixes()
            let oldPrint = try await old.breedCatalog().fingerprint
            #expect(try deniedRows(path).map { $0[0] } == [oldPrint])
            // TTL zero: the pages are revalidated, so the new server's catalog is what is read.
            let new = try cachingClient(synthetic.baseURL) { $0.cachePath = path; $0.cacheTTL = .zero }
            let view = try await new.breedCatalog()
            #expect(view.breeds.count == 500)
            #expect(view.fingerprint != oldPrint)
            #expect(try deniedRows(path) == [])
            #expect(!view.denies("zz"))
        }
    }

    @Test func aDenialTheCacheCannotSaveIsCountedInItsWarningsAndTheSearchStillAnswers() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            try await withMock { _, server in
                let client = try cachingClient(server.baseURL) { $0.cachePath = path }
                let view = try await client.breedCatalog()
                // Another connection takes the table away: the client's write of the denial fails.
                try SQLiteConnection(path: path).execute("DROP TABLE denied_prefix")
                #expect(view.search(prefix: "Qx").isEmpty)
                await client.flushDeniedPrefixes()
                #expect(view.denies("qxz"))
                #expect(client.cacheWarnings.count == 1)
                #expect(client.cacheWarnings.first?.contains("could not save the denied prefix \"qx\"") == true)
                #expect(view.search(prefix: "Sia").map(\.breed) == ["Siamese"])
            }
        }
    }

    @Test func aShorterDenialReplacesTheLongerOnesItCovers() throws {
        let store = try ResponseStore(path: nil, maxBytes: 1 << 20)
        try store.denyPrefix("ébz", catalog: "c1")
        try store.denyPrefix("ébzq", catalog: "c1")
        try store.denyPrefix("xyz", catalog: "c1")
        try store.denyPrefix("éb", catalog: "c1")
        #expect(try store.deniedPrefixes(catalog: "c1") == ["xyz", "éb"])
        // Reading for another catalog forgets the first one's denials.
        #expect(try store.deniedPrefixes(catalog: "c2") == [])
        #expect(try store.deniedPrefixes(catalog: "c1") == [])
    }

    @Test func theFingerprintDependsOnTheNamesAndTheirOrderOnly() {
        let a = BreedCatalogView(breeds: [Breed(breed: "Ab"), Breed(breed: "C")])
        let same = BreedCatalogView(breeds: [Breed(breed: "AB", country: "Egypt"), Breed(breed: "c")])
        let split = BreedCatalogView(breeds: [Breed(breed: "A"), Breed(breed: "bC")])
        let swapped = BreedCatalogView(breeds: [Breed(breed: "C"), Breed(breed: "Ab")])
        #expect(a.fingerprint == same.fingerprint)
        #expect(a.fingerprint != split.fingerprint)
        #expect(a.fingerprint != swapped.fingerprint)
        #expect(a.fingerprint.hasPrefix("2-"))
        #expect(a.fingerprint.count == 2 + 16)
    }

    /// The rows of the file's deny-list, as [catalog, prefix], read with SQLite directly.
    private func deniedRows(_ path: String) throws -> [[String]] {
        try SQLiteConnection(path: path).rows("SELECT catalog, prefix FROM denied_prefix ORDER BY catalog, prefix") {
            row throws(SQLiteError) in [try row.text(0), try row.text(1)]
        }
    }
}
