#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file results are written to instead of stdout (`-o FILE`, `.output FILE`), as sqlite3's
/// `.output` does: created, or emptied when it exists.
struct OutputFile: Sendable {
    /// The path as given.
    let path: String
    /// The open descriptor (write only, close-on-exec).
    let descriptor: Int32

    /// Opens `path` for writing, or says why it cannot (one sentence, with what to try).
    static func create(_ path: String) -> Result<OutputFile, ShellError> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            return .failure(ShellError("cannot write \(path): \(String(cString: strerror(errno)))",
                                       advice: "check the folder exists and is writable"))
        }
        return .success(OutputFile(path: path, descriptor: descriptor))
    }

    /// Closes the file.
    func finish() {
        _ = close(descriptor)
    }
}

