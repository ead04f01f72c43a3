extension Command {
    /// `.output [FILE]`, as in sqlite3.
    static let output = Command(
        name: ".output", aliases: [".out"], synopsis: ".output [FILE]", summary: "results to a file, or back to stdout",
        details: """
            Writes the results of the commands after it to FILE (created, or emptied when it
            exists), as sqlite3's .output does; errors and notices stay on stderr. .output
            alone goes back to stdout. -o FILE does the same from the start. In a file, tables
            are neither cut nor coloured.
            """
    ) { session, arguments throws(ShellError) in
        guard !arguments.values.isEmpty else {
            session.output.redirect(to: nil)
            return
        }
        let path = arguments.text(from: 0)
        switch OutputFile.create(path) {
        case .success(let file): session.output.redirect(to: file)
        case .failure(let error): throw error
        }
    }
}
