import Dispatch
import Foundation
import Testing

/// The `catfacts-mock` executable, run as a child process.
@Suite("catfacts-mock")
struct ExecutableTests {
    /// The built binary: next to the test runner, else in the package's build folder.
    private static func executable() throws -> URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            runner.appendingPathComponent("catfacts-mock"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("catfacts-mock"),
            package.appendingPathComponent(".build/debug/catfacts-mock"),
        ]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "catfacts-mock is not built; run `swift build --target catfacts-mock` (looked in \(candidates.map(\.path)))")
    }

    /// A running `catfacts-mock` with its output pipes.
    private final class Child: Sendable {
        let process = Process()
        let stdout = Pipe()
        let stderr = Pipe()
        private let (exits, exited) = AsyncStream.makeStream(of: Int32.self)

        init(_ arguments: [String]) throws {
            process.executableURL = try ExecutableTests.executable()
            process.arguments = arguments
            process.standardOutput = stdout
            process.standardError = stderr
            let exited = exited
            process.terminationHandler = { exited.yield($0.terminationStatus) }
            try process.run()
            // Never let a stuck child outlive the test; only a hang, not a loaded machine, takes a minute.
            let process = process
            DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
                if process.isRunning { process.interrupt(); kill(process.processIdentifier, SIGKILL) }
            }
        }

        /// The first line on stdout (nil at end of file), read off the cooperative pool.
        func firstLine() async -> String? {
            let handle = stdout.fileHandleForReading
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    var data = Data()
                    while !data.contains(0x0A) {
                        let chunk = handle.availableData
                        if chunk.isEmpty { break }
                        data.append(chunk)
                    }
                    let line = data.split(separator: 0x0A, omittingEmptySubsequences: false).first
                    continuation.resume(returning: data.isEmpty ? nil : line.map { String(decoding: $0, as: UTF8.self) })
                }
            }
        }

        /// Waits for the exit status.
        func exitStatus() async -> Int32? {
            for await status in exits { return status }
            return nil
        }

        func errorOutput() -> String {
            String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
    }

    @Test("prints where it listens first, serves, and exits 0 on a signal", arguments: [SIGTERM, SIGINT])
    func listensAndStops(_ signal: Int32) async throws {
        let child = try Child(["--port", "0", "--breeds", "40"])
        let line = try #require(await child.firstLine())
        let prefix = "listening on http://127.0.0.1:"
        #expect(line.hasPrefix(prefix))
        let port = try #require(Int(line.dropFirst(prefix.count)))
        #expect(port > 0 && port != 8106)

        let url = try #require(URL(string: "http://127.0.0.1:\(port)/breeds?limit=3"))
        let (body, response) = try await MockHTTP.request(url: url)
        #expect(response.statusCode == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json.int("total") == 40)
        #expect(json.string("per_page") == "3")

        kill(child.process.processIdentifier, signal)
        #expect(await child.exitStatus() == 0)
    }

    @Test("rejects bad flags with a clear message", arguments: [
        (["--fail-rate", "2"], "--fail-rate"),
        (["--faults", "500,boom"], "boom"),
        (["--latency-ms=-5"], "--latency-ms"),
        (["--breeds=-1"], "--breeds"),
        (["--hold", "0"], "--hold must be at least 1"),
        (["--hold-ms", "0"], "--hold-ms"),
        (["--render-cache-mb=-1"], "--render-cache-mb"),
    ])
    func rejectsBadFlags(_ arguments: [String], _ mention: String) async throws {
        let child = try Child(["--port", "0"] + arguments)
        let status = await child.exitStatus()
        #expect(status != 0 && status != nil)
        let message = child.errorOutput()
        #expect(message.contains(mention), "\(message)")
        #expect(await child.firstLine() == nil, "nothing on stdout")
    }
}
