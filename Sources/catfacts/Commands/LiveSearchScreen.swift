import CatFactsKit

/// Live search (`search` alone, or Ctrl-S at the prompt): the matches follow each keystroke
/// under the search line, debounced by ``LiveSearch`` (only the latest text is ever
/// answered); ↑/↓ select, Enter shows the selected breed as `show` does, Esc (or Ctrl-D)
/// leaves, erasing what was drawn. Ctrl-C leaves too, as a cancelled command. What it
/// draws is ``LiveSearchView``'s.
enum LiveSearchScreen {
    /// How long the text must stay unchanged before live search searches it, in ms.
    static let debounceMilliseconds = 150

    /// Whether `search` alone can run live search here (see ``Output/offersLiveSearch``).
    static func isAvailable(in session: isolated Session) -> Bool {
        session.output.offersLiveSearch
    }

    /// Runs live search. Returns whether it was left without showing a breed (Esc, Ctrl-D).
    @discardableResult
    static func run(in session: isolated Session) async throws(ShellError) -> Bool {
        let output = session.output
        let changed = ChangeCounter()
        let latest = Locked<LiveSearch.Answer?>(nil)
        let limit = max(1, output.streams.size.rows - 4)
        let search = LiveSearch(client: session.client, debounce: .milliseconds(debounceMilliseconds), limit: limit) { answer in
            latest.withLock { $0 = answer }
            changed.bump()
        }
        defer { search.close() }
        var view = LiveSearchView()
        let chosen = try await Keyboard.withKeys { () async throws(ShellError) -> Breed? in
            var drawing = RedrawnLines()
            defer { output.write(drawing.erase()) }
            // A breed chosen, or none (`.some(nil)`): left without one.
            return try await RedrawLoop.run(changes: { changed.value }) { () throws(ShellError) -> Breed?? in
                if let answer = latest.withLock({ $0 }) { view.receive(answer) }
                let size = output.streams.size
                let lines = view.lines(width: size.columns, height: size.rows, style: output.style) { output.sourceLabel($0) }
                output.write(drawing.replace(with: lines, cursor: .onFirstLine(column: view.cursorColumn(width: size.columns))))
                return nil
            } react: { input throws(ShellError) -> Breed?? in
                switch input {
                case .cancelled: throw .cancelled
                case .closed: return .some(nil)
                case .keys(let bytes):
                    for key in KeyPress.parse(bytes) {
                        switch key {
                        case .escape, .endOfInput: return .some(nil)
                        case .enter:
                            if let breed = view.selection { return breed }
                        default:
                            if view.apply(key) { search.set(view.text) }
                        }
                    }
                    return nil
                }
            }
        }
        session.noteReachability()
        guard let chosen, let answer = view.answer else { return true }
        session.note(answer.source)
        session.number(view.matches.enumerated().map { ($0.offset + 1, $0.element) })
        output.show(BreedDetail.report(chosen, source: answer.source))
        return false
    }

    /// Live search entered with Ctrl-S at the prompt, as `search` alone; a failure is printed
    /// as a command's is. Returns whether it was left without showing a breed, so that the
    /// line set aside goes back to the prompt.
    static func runFromPrompt(in session: isolated Session) async -> Bool {
        guard isAvailable(in: session) else {
            session.output.console.failure(ShellError("live search needs table or plain output", advice: "set output table"),
                                           what: "search")
            return false
        }
        do throws(ShellError) {
            return try await run(in: session)
        } catch {
            session.spinner.stop()
            session.output.console.failure(error, what: "search")
            return false
        }
    }
}
