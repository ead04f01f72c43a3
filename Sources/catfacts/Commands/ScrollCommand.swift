extension Command {
    /// `scroll [FROM]`.
    static let scroll = Command(
        name: "scroll", synopsis: "scroll [FROM]", summary: "walks the breeds through the windowed pager",
        details: """
            Walks the breeds from number FROM (default: the first of the last breeds page)
            through the windowed pager, which loads pages around the rows being read and
            drops those far behind. Rows print as they arrive; on a terminal, rows still
            loading show …loading… and are redrawn in place, a screenful at a time: any key
            shows the next, q stops. In a script, or with set output json or plain, it prints
            \(Session.scrollRows) rows in order, waiting for each.
            """
    ) { session, arguments throws(ShellError) in
        try arguments.expect(atMost: 1)
        let start = try arguments.integer(at: 0, "breed number", in: 1...Int.max) ?? session.defaultScrollStart
        try await session.scroll(from: start)
    }
}
