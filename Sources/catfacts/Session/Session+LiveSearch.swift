import CatFactsKit

extension Session {
    /// How long the text must stay unchanged before live search searches it, in ms.
    static let liveSearchDebounceMilliseconds = 150

    /// Whether `search` alone can run live search here: keys read one by one and lines
    /// redrawn in place need a terminal, and a table or plain listing (not JSON or CSV,
    /// whose every line is data).
    var canSearchLive: Bool { isInteractive && (output == .table || output == .plain) }

    /// Live search (`search` alone): the matches follow each keystroke under the search line,
    /// debounced by ``LiveSearch`` (only the latest text is ever answered); ↑/↓ select,
    /// Enter shows the selected breed as `show` does, Esc (or Ctrl-D) leaves, erasing what
    /// was drawn. Ctrl-C leaves too, as a cancelled command.
    ///
    /// Returns whether it was left without showing a breed (Esc, Ctrl-D).
    @discardableResult
    func liveSearch() async throws(ShellError) -> Bool {
        let changed = ChangeCounter()
        let latest = Locked<LiveSearch.Answer?>(nil)
        let limit = max(1, streams.size.rows - 4)
        let search = LiveSearch(client: client, debounce: .milliseconds(Self.liveSearchDebounceMilliseconds), limit: limit) { answer in
            latest.withLock { $0 = answer }
            changed.bump()
        }
        defer { search.close() }
        var view = LiveSearchView()
        let chosen = try await Keyboard.withKeys { () async throws(ShellError) -> Breed? in
            defer { console.write(LiveSearchView.erase) }
            while true {
                if let answer = latest.withLock({ $0 }) { view.receive(answer) }
                let size = streams.size
                let width = size.columns
                let lines = view.lines(width: width, height: size.rows, style: console.style) { [self] in sourceLabel($0) }
                console.write(LiveSearchView.redraw(lines, cursorColumn: view.cursorColumn(width: width)))
                let seen = changed.value
                let resized = ResizeSignal.current
                let input = await Keyboard.nextInput(timeout: .seconds(86_400)) {
                    changed.value != seen || ResizeSignal.current != resized
                }
                switch input {
                case .cancelled: throw .cancelled
                case .closed: return nil
                case .timeout: continue
                case .bytes(let bytes):
                    for key in KeyPress.parse(bytes) {
                        switch key {
                        case .escape, .endOfInput: return nil
                        case .enter:
                            if let breed = view.selection { return breed }
                        default:
                            if view.apply(key) { search.set(view.text) }
                        }
                    }
                }
            }
        }
        noteReachability()
        guard let chosen, let answer = view.answer else { return true }
        note(answer.source)
        number(view.matches.enumerated().map { ($0.offset + 1, $0.element) })
        printBreed(chosen, label: sourceLabel(answer.source))
        return false
    }

    /// Live search entered with Ctrl-S at the prompt, as `search` alone; a failure is printed
    /// as a command's is. Returns whether it was left without showing a breed, so that the
    /// line set aside goes back to the prompt.
    func liveSearchFromPrompt() async -> Bool {
        guard canSearchLive else {
            console.failure(ShellError("live search needs table or plain output", advice: "set output table"), what: "search")
            return false
        }
        do throws(ShellError) {
            return try await liveSearch()
        } catch {
            spinner.stop()
            console.failure(error, what: "search")
            return false
        }
    }
}
