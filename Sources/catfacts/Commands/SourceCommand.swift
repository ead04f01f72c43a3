import CatFactsKit

extension Command {
    /// `source`.
    static let source = Command(
        name: "source", synopsis: "source", summary: "server, online or offline, cache",
        details: """
            Says where the data comes from: the server and how it was chosen, whether it is
            reached (or the shell answers from the bundled offline catalog), where the last
            result came from, and where pages are cached (the file and when it was last written),
            with what went wrong with the cache (a damaged file moved aside, a full disk, a
            read-only folder).
            """
    ) { session, arguments throws(ShellError) in
        try arguments.expectNone()
        session.printSource()
    }
}
