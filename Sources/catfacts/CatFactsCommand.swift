import ArgumentParser
import CatFactsKit
import CatFactsMock
import Foundation

/// `catfacts`: for now, one page of breeds and the metrics. The interactive shell
/// described in fronts.md grows from here (its own issue).
@main
struct CatFactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catfacts",
        abstract: "Browse the Cat Facts API: a page of breeds, then the metrics.")

    @Option(name: .long, help: "The API's base URL (http or https).")
    var baseURL: String?

    @Flag(name: .long, help: "Start the mock API in-process on a free loopback port and use it.")
    var mock = false

    @Option(name: .long, help: "The page of breeds to show, from 1.")
    var page = 1

    @Option(name: .long, help: "Breeds per page.")
    var limit = 10

    @Flag(name: .long, help: "Print JSON instead of tables.")
    var json = false

    func validate() throws {
        if mock, baseURL != nil { throw ValidationError("--mock and --base-url exclude each other") }
        if page < 1 { throw ValidationError("--page must be 1 or more") }
        if limit < 1 { throw ValidationError("--limit must be 1 or more") }
    }

    func run() async throws {
        var server: MockServer?
        if mock {
            var configuration = MockConfiguration()
            configuration.port = 0
            server = try await MockServer.start(configuration)
        }
        defer { if let server { Task { await server.stop() } } }
        let client: CatFactsClient
        do {
            client = try CatFactsClient(options: ClientOptions(baseURL: server?.baseURL.absoluteString ?? baseURL))
        } catch {
            throw Failure(error)
        }
        FileHandle.standardError.write(Data("catfacts \(LibraryVersion.string) — server \(client.baseURL.absoluteString)\n".utf8))
        do {
            let breeds = try await client.breeds(page: page, limit: limit)
            print(json ? Report.json(breeds) : Report.table(breeds))
        } catch {
            FileHandle.standardError.write(Data("catfacts: \(error.description)\n".utf8))
        }
        let snapshot = client.metrics.snapshot()
        print(json ? snapshot.json() : Report.table(snapshot))
        if let server { await server.stop() }
        if snapshot.endpoints.contains(where: { $0.errors > 0 }) { throw ExitCode.failure }
    }
}

/// A CatFacts error as the command's failure, printed as its description.
struct Failure: Error, CustomStringConvertible {
    let error: CatFactsError
    init(_ error: CatFactsError) { self.error = error }
    var description: String { error.description }
}
