import CatFactsFoundation
@testable import CatFactsKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Real file-system faults under a client's cache: a full disk (a tiny tmpfs, filled) and a
/// read-only folder (a read-only bind mount; root ignores file modes, not a read-only mount).
/// Mounting needs root. The test process has many threads, so it cannot enter a mount
/// namespace of its own: each mount is on a fresh temporary folder, undone when the test ends.
@Suite("The cache on a full disk and in a read-only folder", .serialized,
       .enabled(if: geteuid() == 0, "mounting a tmpfs or a read-only bind mount needs root"))
struct CacheMountTests {
    @Test func aFullDiskCountsFailedWritesInOneWarningAndCallsGoOn() async throws {
        try await withMount(source: "tmpfs", type: "tmpfs", options: "size=256k") { folder in
            let path = folder.appendingPathComponent("cache.sqlite").path
            try await withMock { _, server in
                // Opened first: the file, its WAL and shared memory exist before the disk fills.
                let client = try cachingClient(server.baseURL) { $0.cachePath = path }
                let filler = folder.appendingPathComponent("filler").path
                #expect(fillDisk(filler) == ENOSPC)
                for page in 1...3 {
                    #expect(try await client.breeds(page: page, limit: 20).source == .network)
                }
                let full = try #require(client.metrics.snapshot().cache)
                #expect((full.path, full.writesFailed, full.entries) == (path, 3, 0))
                #expect(full.warnings.count == 1)
                let origin = CacheKey.origin(of: try #require(WebAddress(server.baseURL)))
                #expect(full.warnings.first?.hasPrefix("disk full: 3 cache writes failed; the last: the cache could not write "
                                                       + "\(origin)/breeds?limit=20&page=3: SQLite error 13: database or disk is full - ")
                        == true, "\(full.warnings)")

                // Room again: pages are stored, and the count stays.
                try FileManager.default.removeItem(atPath: filler)
                _ = try await client.breeds(page: 4, limit: 20)
                #expect(try await client.breeds(page: 4, limit: 20).source == .cache)
                let later = try #require(client.metrics.snapshot().cache)
                #expect((later.writesFailed, later.entries, later.warnings) == (3, 1, full.warnings))
            }
        }
    }

    @Test func aReadOnlyFolderIsNamedAndTheCacheMovesToMemory() async throws {
        try await withTemporaryFolder { folder in
            try await withMount(source: folder.path, type: nil, options: nil, flags: UInt(MS_BIND), at: folder) { folder in
                // A bind mount takes MS_RDONLY only when remounted.
                #expect(mount(nil, folder.path, nil, UInt(MS_REMOUNT | MS_BIND | MS_RDONLY), nil) == 0,
                        "\(String(cString: strerror(errno)))")
                let path = folder.appendingPathComponent("cache.sqlite").path
                try await withMock { _, server in
                    let client = try cachingClient(server.baseURL) { $0.cachePath = path }
                    #expect(try await client.breeds(page: 1, limit: 5).source == .network)
                    #expect(try await client.breeds(page: 1, limit: 5).source == .cache)
                    let cache = try #require(client.metrics.snapshot().cache)
                    #expect(cache.path == nil)
                    #expect((cache.entries, cache.hits, cache.writesFailed) == (1, 1, 0))
                    #expect(cache.warnings == [
                        "cannot use the cache file \(path): its folder \(folder.path) is not writable (Read-only file system)",
                        "the cache file \(path) cannot be used; caching in memory instead",
                    ])
                }
                #expect(!FileManager.default.fileExists(atPath: path))
            }
        }
    }
}

/// Mounts `source` on `folder` (a fresh temporary one when `nil`), runs `body`, and unmounts
/// and removes what it made, whatever `body` did.
private func withMount(source: String, type: String?, options: String?, flags: UInt = 0, at folder: URL? = nil,
                       _ body: (URL) async throws -> Void) async throws {
    let target = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("catfacts-mount-\(UUID().uuidString)")
    if folder == nil { try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true) }
    defer { if folder == nil { try? FileManager.default.removeItem(at: target) } }
    guard mount(source, target.path, type, flags, options) == 0 else {
        Issue.record("mount \(source) on \(target.path): \(String(cString: strerror(errno)))")
        return
    }
    defer { #expect(umount2(target.path, Int32(MNT_DETACH)) == 0, "umount \(target.path): \(String(cString: strerror(errno)))") }
    try await body(target)
}

/// Writes to `path` until the disk is full; the `errno` that stopped it (ENOSPC when it filled).
private func fillDisk(_ path: String) -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return errno }
    defer { close(fd) }
    let block = [UInt8](repeating: 0x66, count: 4096)
    while true {
        let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written <= 0 { return written < 0 ? errno : 0 }
    }
}
