import CatFactsKit

extension Command {
    /// `facts [PAGE|--page N] [--max-length N]`.
    static let facts = Command(
        name: "facts", synopsis: "facts [PAGE|--page N] [--max-length N]", summary: "a page of facts",
        details: """
            Lists page PAGE (default 1; or --page N) of the cat facts (set page-size says how
            many to a page), numbered, each wrapped to the terminal. --max-length N keeps the
            facts of at most N characters (0: all). next, prev, first and last move from here.
            """,
        completion: .positions([["--page", "--max-length"], ["--max-length"]])
    ) { session, arguments throws(ShellError) in
        let (page, options) = try arguments.listingPage(valued: ["--max-length"])
        let maxLength = try options["--max-length"].map { (text) throws(ShellError) in
            try Arguments.integer(text, "maximum length", in: 0...Int.max, synopsis: arguments.synopsis)
        }
        try await PageListing.show(.facts(maxLength: maxLength == 0 ? nil : maxLength), page, in: session)
    }

    /// `fact [MAX_LENGTH]`.
    static let fact = Command(
        name: "fact", synopsis: "fact [MAX_LENGTH]", summary: "a random fact",
        details: "Prints one random cat fact, of at most MAX_LENGTH characters when given (0: any length)."
    ) { session, arguments throws(ShellError) in
        try arguments.expect(atMost: 1)
        let maxLength = try arguments.integer(at: 0, "maximum length", in: 0...Int.max)
        let fact: Fact
        do throws(ShellError) {
            fact = try await session.request { () async throws(CatFactsError) in
                try await session.client.randomFact(maxLength: maxLength == 0 ? nil : maxLength)
            }
        } catch {
            // The service answers 404 when no fact is short enough (the catalog, offline).
            switch error.cause {
            case .http(404, _, _, _)?, .offline?: throw ShellError(error.why, advice: "try a larger MAX_LENGTH, or none")
            default: throw error
            }
        }
        session.noteUnlabelledResult()
        session.output.show(FactRows.report(fact, source: session.offlineSource))
    }
}
