import CatFactsKit

extension Command {
    /// `breeds [PAGE|--page N]`.
    static let breeds = Command(
        name: "breeds", synopsis: "breeds [PAGE|--page N]", summary: "a page of breeds, numbered",
        details: """
            Lists page PAGE (default 1; --page N as in group, sort and filter) of the breeds
            (set page-size says how many to a page), each numbered for show N. The title says
            the page, the total, and where the page came from when it is not live from the
            server (offline catalog). next, prev, first and last move from here; scroll walks
            every breed, sort breed --all lists them all at once.
            """,
        completion: .positions([["--page"]])
    ) { session, arguments throws(ShellError) in
        let (page, _) = try arguments.listingPage()
        try await PageListing.show(.breeds, page, in: session)
    }

    /// `next`.
    static let next = Command(
        name: "next", aliases: ["n"], synopsis: "next", summary: "the next page of the last listing",
        details: "Shows the page after the one breeds or facts showed last."
    ) { session, arguments throws(ShellError) in
        try arguments.expectNone()
        try await PageListing.turn(by: 1, in: session)
    }

    /// `prev`.
    static let prev = Command(
        name: "prev", aliases: ["p"], synopsis: "prev", summary: "the previous page of the last listing",
        details: "Shows the page before the one breeds or facts showed last."
    ) { session, arguments throws(ShellError) in
        try arguments.expectNone()
        try await PageListing.turn(by: -1, in: session)
    }

    /// `first`.
    static let first = Command(
        name: "first", synopsis: "first", summary: "the first page of the last listing",
        details: "Shows page 1 of what breeds or facts listed last (of the breeds, before any listing)."
    ) { session, arguments throws(ShellError) in
        try arguments.expectNone()
        try await PageListing.show(session.position?.kind ?? .breeds, 1, in: session)
    }

    /// `last`.
    static let last = Command(
        name: "last", synopsis: "last", summary: "the last page of the last listing",
        details: """
            Shows the last page of what breeds or facts listed last (of the breeds, before any
            listing). When the last page is not known yet, page 1 is fetched first to learn it.
            """
    ) { session, arguments throws(ShellError) in
        try arguments.expectNone()
        let kind = session.position?.kind ?? .breeds
        let lastPage: Int
        if let position = session.position, let known = position.lastPage {
            lastPage = known
        } else {
            lastPage = try await PageListing.lastPage(of: kind, in: session)
        }
        try await PageListing.show(kind, lastPage, in: session)
    }
}
