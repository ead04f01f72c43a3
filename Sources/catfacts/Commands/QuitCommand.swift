extension Command {
    /// `quit` / `exit`.
    static let quit = Command(
        name: "quit", aliases: ["exit"], synopsis: "quit", summary: "leave the shell",
        details: "Leaves the shell (Ctrl-D at the prompt does too). In a script, stops it there."
    ) { session, arguments throws(ShellError) in
        try arguments.expectNone()
        session.quitRequested.set()
    }
}
