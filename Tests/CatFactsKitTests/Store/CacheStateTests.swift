@testable import CatFactsKit
import CSQLite
import Foundation
import Testing

@Suite("The cache's state in the metrics: size, hits, failed writes, evictions and warnings")
struct CacheStateTests {
    @Test func aMemoryCacheHasNoPathAndCountsItsPagesAndHits() async throws {
        try await withMock(options: { $0.cacheMaxBytes = 100_000 }) { client, _ in
            #expect(try await client.breeds(page: 1, limit: 5).source == .network)
            #expect(try await client.breeds(page: 1, limit: 5).source == .cache)
            let cache = try #require(client.metrics.snapshot().cache)
            let bytes = try #require(client.store).totalBytes()
            #expect(bytes > 0)
            #expect(cache == CacheState(path: nil, bytes: bytes, maxBytes: 100_000, entries: 1, hits: 1, writesFailed: 0,
                                        evictedEntries: 0, evictedBytes: 0, warnings: []))
        }
    }

    @Test func withoutACacheTheStateIsNullInTheJSON() async throws {
        try await withMock(options: { $0.cacheMaxBytes = 0 }) { client, _ in
            let snapshot = client.metrics.snapshot()
            #expect(snapshot.cache == nil)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(snapshot.json().utf8)) as? [String: Any])
            #expect(json["cache"] is NSNull)
            #expect(!snapshot.prometheus().contains("catfacts_cache_entries"))
        }
    }

    @Test func theJSONHasEveryKeyAndThePrometheusTextTheSameValues() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            try await withMock(options: { $0.cachePath = path }) { client, _ in
                _ = try await client.breeds(page: 1, limit: 5)
                let snapshot = client.metrics.snapshot()
                let cache = try #require(snapshot.cache)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(snapshot.json().utf8)) as? [String: Any])
                let object = try #require(json["cache"] as? [String: Any])
                #expect(Set(object.keys) == ["path", "bytes", "max_bytes", "entries", "hits", "writes_failed",
                                             "evicted_entries", "evicted_bytes", "warnings"])
                #expect(object["path"] as? String == path)
                #expect(object["entries"] as? Int == 1)
                #expect(object["bytes"] as? Int == cache.bytes)
                #expect(object["max_bytes"] as? Int == ClientOptions.defaultFileCacheBytes)
                #expect((object["warnings"] as? [Any])?.isEmpty == true)
                let prometheus = snapshot.prometheus()
                for line in ["catfacts_cache_entries 1", "catfacts_cache_bytes \(cache.bytes)",
                             "catfacts_cache_max_bytes \(ClientOptions.defaultFileCacheBytes)",
                             "catfacts_cache_writes_failed_total 0", "catfacts_cache_evicted_entries_total 0",
                             "catfacts_cache_evicted_bytes_total 0", "catfacts_cache_warnings 0"] {
                    #expect(prometheus.contains("\n\(line)\n"), "\(line)")
                }
            }
        }
    }

    @Test func aDamagedFileIsMovedAsideAndTheWarningNamesTheFileThatHoldsIt() async throws {
        try await withTemporaryFolder { folder in
            let live = folder.appendingPathComponent("live.sqlite").path
            let path = folder.appendingPathComponent("cache.sqlite").path
            try await withMock { _, server in
                _ = try await cachingClient(server.baseURL) { $0.cachePath = live }.breeds(page: 1, limit: 5)
                // A copy of a cache file, its header overwritten. Not the file itself: the first
                // client's connection may live on until its last task ends, and SQLite shares a
                // file's WAL between the connections of a process, where a good header could answer.
                try FileManager.default.copyItem(atPath: live, toPath: path)
                let garbage = Data(repeating: 0x58, count: 100)
                let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try file.write(contentsOf: garbage)
                try file.close()

                let client = try cachingClient(server.baseURL) { $0.cachePath = path }
                let cache = try #require(client.metrics.snapshot().cache)
                #expect(cache.path == path)
                #expect(cache.entries == 0)
                #expect(cache.warnings.count == 1)
                let warning = try #require(cache.warnings.first)
                #expect(warning.hasPrefix("the cache file \(path) is not a valid SQLite database ("), "\(warning)")
                let moved = try #require(warning.range(of: "; moved it to ")).upperBound
                let end = try #require(warning.range(of: " and started a new cache")).lowerBound
                let aside = String(warning[moved..<end])
                #expect(aside.hasPrefix(path + ".corrupt-"))
                #expect(try Data(contentsOf: URL(fileURLWithPath: aside)).prefix(100) == garbage)
                #expect(try await client.breeds(page: 1, limit: 5).source == .network)
                #expect(client.metrics.snapshot().cache?.entries == 1)
            }
        }
    }

    /// Sizes known to the byte: five bodies of 300 bytes under a cap of 1000 bytes.
    @Test func evictionsAreCountedToTheByteInOneWarning() throws {
        let store = try ResponseStore(path: nil, maxBytes: 1000)
        let keys = (1...5).map { CacheKey(origin: "http://a", endpoint: .facts, query: [QueryItem(name: "page", value: "\($0)")]) }
        for key in keys {
            try store.save(key, body: Array(repeating: 0x20, count: 300), fetchedAt: .now, etag: nil, lastModified: nil)
        }
        // Each row: 300 + "http://a/facts?page=N".count (21) + 64 = 385 bytes; two fit.
        let row = 300 + keys[0].description.utf8.count + ResponseStore.rowOverhead
        #expect(row == 385)
        let state = store.state(hits: 0)
        #expect((state.entries, state.bytes, state.evictedEntries, state.evictedBytes) == (2, 2 * row, 3, 3 * row))
        #expect(state.warnings == ["evicted 3 cached pages (\(3 * row) bytes) so far, least recently used first, "
                                   + "to keep the cache within cache_max_bytes (1000 bytes); they load again when asked"])
        #expect(try store.keys() == keys.suffix(2).map(\.description))
    }

    @Test func failedWritesAreCountedAndSummarizedInOneLinePerKind() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            let store = try ResponseStore(path: path, maxBytes: 1 << 20)
            try SQLiteConnection(path: path).execute("DROP TABLE response")
            let key = { (n: Int) in CacheKey(origin: "http://a", endpoint: .breeds, query: [QueryItem(name: "page", value: "\(n)")]) }
            for n in 1...3 {
                #expect(store.warnOnFailure { () throws(CatFactsError) in
                    try store.save(key(n), body: [1], fetchedAt: .now, etag: nil, lastModified: nil)
                } == nil)
            }
            #expect(store.warnOnFailure { () throws(CatFactsError) in try store.lookup(key(1)) } == nil)
            let state = store.state(hits: 0)
            #expect(state.writesFailed == 3)
            #expect((state.entries, state.bytes) == (0, 0))
            let insert = "INSERT OR REPLACE INTO response (key, endpoint, body, size, fetched_at, last_used_at, etag, last_modified,\n"
                + String(repeating: " ", count: 33) + "decoded, decoded_format)\nVALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            #expect(state.warnings == [
                "3 cache writes failed; the last: the cache could not write http://a/breeds?page=3: "
                    + "SQLite error 1: no such table: response - while executing `\(insert)`; delete the cache file (it holds only copies of pages), or set cache_path elsewhere",
                // The lookup's line, rewritten when counting the pages for this state failed too.
                "2 cache reads failed; the last: the cache could not count the pages: SQLite error 1: "
                    + "no such table: response - while executing `SELECT count(*), coalesce(sum(size), 0) FROM response`"
                    + "; delete the cache file (it holds only copies of pages), or set cache_path elsewhere",
            ], "\(state.warnings)")
        }
    }

    @Test func aRecurringWarningIsRewrittenInPlaceAndOneOffsAreAdded() {
        let warnings = StoreWarnings()
        warnings.add("first")
        warnings.summarize("disk full: once", as: "write: disk full")
        warnings.add("second")
        warnings.summarize("disk full: twice", as: "write: disk full")
        #expect(warnings.all == ["first", "disk full: twice", "second"])
        for n in 0..<StoreWarnings.capacity { warnings.add("\(n)") }
        #expect(warnings.all.count == StoreWarnings.capacity)
        #expect(warnings.all.first == "0")
    }

    /// The extended code of an I/O failure names only the step (a write), `errno` the cause;
    /// an `errno` left over by an earlier call is not read for a code that is not the file's.
    @Test(arguments: [
        (SQLITE_FULL, Int32(0), "disk full"), (ioerrWrite, ENOSPC, "disk full"),
        (SQLITE_READONLY, Int32(0), "read-only"), (ioerrWrite, EROFS, "read-only"),
        (SQLITE_CANTOPEN, EACCES, "permission denied"), (ioerrWrite, EIO, "I/O error"),
        (SQLITE_CORRUPT, Int32(0), "damaged"), (SQLITE_CONSTRAINT, ENOSPC, nil),
    ] as [(Int32, Int32, String?)])
    func aFailureIsNamedByItsCodeAndTheSystemError(code: Int32, systemErrno: Int32, kind: String?) {
        #expect(SQLiteError(code: code, message: "m", sql: nil, systemErrno: systemErrno).kind == kind)
    }
}

/// `SQLITE_IOERR_WRITE`, a macro Swift does not import.
private let ioerrWrite = SQLITE_IOERR | (3 << 8)
