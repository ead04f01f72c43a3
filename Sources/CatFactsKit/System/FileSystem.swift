#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the library needs, over the C library (Foundation's
/// `FileManager` would bring all of Foundation; see ``Timestamp``). Failures are the
/// system's words for the cause ("Permission denied", "Not a directory").
package enum FileSystem {
    /// The system's text for `errno` now.
    package static var lastError: String { String(cString: strerror(errno)) }

    /// Makes the folder `path` and any missing folder above it; `nil`, or why it could not.
    package static func createFolders(_ path: String) -> String? {
        guard !path.isEmpty else { return nil }
        var made = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            made += (made.isEmpty || made.hasSuffix("/") ? "" : "/") + part
            if mkdir(made, 0o777) != 0, errno != EEXIST { return lastError }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return lastError }
        return (info.st_mode & S_IFMT) == S_IFDIR ? nil : String(cString: strerror(ENOTDIR))
    }

    /// The folder part of `path`: `/a/b` for `/a/b/c.sqlite`, `.` for `c.sqlite`, `/` for `/c`.
    package static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let folder = trimmed[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// `path` from the root: as it is when it starts with `/`, else under the working folder
    /// (as it is when that cannot be read).
    package static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let folder = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if path == "." { return folder }
        return (folder.hasSuffix("/") ? folder : folder + "/") + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    /// Whether anything (a file, a folder, a link) is at `path`.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether this process may read the file at `path`.
    package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// Renames `path` to `destination`; `nil`, or why it could not.
    package static func move(_ path: String, to destination: String) -> String? {
        rename(path, destination) == 0 ? nil : lastError
    }

    /// The first `limit` bytes of the file at `path`; `nil` when it cannot be read.
    package static func contents(of path: String, limit: Int = 1 << 20) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, min($0.count, limit - bytes.count)) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
}
