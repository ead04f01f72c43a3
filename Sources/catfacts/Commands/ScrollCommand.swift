import CatFactsKit

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
            \(BreedScroll.rowsInOrder) rows in order, waiting for each.
            """
    ) { session, arguments throws(ShellError) in
        try arguments.expect(atMost: 1)
        let start = try arguments.integer(at: 0, "breed number", in: 1...Int.max) ?? BreedScroll.defaultStart(in: session)
        try await BreedScroll.walk(from: start, in: session)
    }
}

/// What `scroll` does: walks the breeds through the session's windowed list, a screenful at
/// a time at a terminal (redrawn in place as rows load), else a number of rows in order.
enum BreedScroll {
    /// Rows `scroll` prints in a script.
    static let rowsInOrder = 50
    /// How long a script's `scroll` waits for one row before giving up.
    static let rowTimeout = Duration.seconds(40)

    /// Where `scroll` starts without FROM: the first breed of the last breeds page.
    static func defaultStart(in session: isolated Session) -> Int {
        guard let position = session.position, position.kind == .breeds else { return 1 }
        return (position.page - 1) * session.settings.pageSize + 1
    }

    /// Walks the breeds from number `start` (from 1).
    static func walk(from start: Int, in session: isolated Session) async throws(ShellError) {
        let list = try scrollingList(session)
        if session.output.scrollsByScreens {
            try await byScreens(list, from: start - 1, in: session)
        } else {
            try await inOrder(list, from: start - 1, count: rowsInOrder, in: session)
        }
        session.noteUnlabelledResult()
    }

    /// The windowed list of breeds at the session's page size, kept between scrolls (until
    /// the page size changes); pages that failed before are tried again.
    private static func scrollingList(_ session: isolated Session) throws(ShellError) -> PagedList<Breed> {
        if let list = session.scrollList {
            list.retry()
            return list
        }
        let size = session.settings.pageSize
        // A screenful each side, at least, so the next screen is loaded while this one is read.
        let prefetch = max(2 * size, session.output.streams.size.rows)
        let options = PagingOptions(pageSize: size, prefetchDistance: prefetch,
                                    maxCachedItems: max(500, size + 2 * prefetch))
        do {
            let list = try session.client.breedList(options)
            session.scrollList = list
            return list
        } catch {
            throw ShellError(error)
        }
    }

    /// Prints `count` rows from `first` (0-based) in order, waiting for each as needed.
    private static func inOrder(_ list: PagedList<Breed>, from first: Int, count: Int,
                                in session: isolated Session) async throws(ShellError) {
        let output = session.output
        let widths = StreamingColumns.breedWidths(largestNumber: first + count)
        // The header row of the data (CSV's) before any wait; the table's title and headings
        // once the first row is in, so the title can say where the rows come from.
        output.show(Report(data: .rows(BreedRows.rows([]))))
        var titled = false
        var shown: [(number: Int, breed: Breed)] = []
        defer { session.number(shown) }
        for index in first..<(first + count) {
            session.spinner.start()
            let state = await list.wait(for: index, timeout: rowTimeout)
            session.spinner.stop()
            session.noteReachability()
            if Task.isCancelled { throw .cancelled }
            if !titled {
                output.show(Report(view: [.title("Breeds from \(first + 1), as they load", source: session.offlineSource),
                                          .streamed(BreedRows.rows([]), typicalWidths: widths)]))
                titled = true
            }
            switch state {
            case .loaded(let breed):
                shown.append((index + 1, breed))
                let row = BreedRows.rows([(index + 1, breed)], continued: true)
                output.show(Report(documents: [JSONDocument(breed)], data: .rows(row),
                                   view: [.streamed(row, typicalWidths: widths)]))
            case .pastEnd:
                output.show(Report(view: [.note(ScrollScreen.endOfList(count: list.count ?? index))]))
                return
            case .failed(let error):
                throw ShellError(error)
            case .pending:
                throw ShellError("breed \(index + 1) did not load within \(Int(rowTimeout.components.seconds)) s",
                                 advice: "scroll \(index + 1) tries again")
            }
        }
        output.show(Report(view: [.note("(scroll \(first + count + 1) goes on)")]))
    }

    /// A screenful at a time, rows still loading shown as placeholders and redrawn in place
    /// as their pages arrive; any key for the next screenful, q to stop.
    private static func byScreens(_ list: PagedList<Breed>, from first: Int, in session: isolated Session) async throws(ShellError) {
        let changed = ChangeCounter()
        list.setListener { _ in changed.bump() }
        defer {
            list.setListener(nil)
            // Not while redrawing in place: a line on stderr would throw the redraw off.
            session.noteReachability()
        }
        let output = session.output
        try await Keyboard.withKeys { () async throws(ShellError) in
            output.write(TerminalCodes.hideCursor)
            defer { output.write(TerminalCodes.showCursor) }
            var start = first
            var numberedAny = false
            output.print(output.style.bold("Breeds from \(first + 1)") + session.offlineLabel)
            while true {
                let size = output.streams.size
                let rows = start..<(start + max(1, size.rows - 2))
                let layout = StreamingColumns(width: size.columns, largestNumber: max(rows.upperBound, list.count ?? 0))
                output.print(layout.header(style: output.style))
                let (screen, stopped) = try await screenful(list, rows: rows, layout: layout, changed: changed, output: output)
                if numberedAny { session.numbered.add(screen.loaded) } else { session.numbered.replace(with: screen.loaded) }
                session.seen.add(screen.loaded.map(\.breed))
                numberedAny = true
                if stopped { return }
                if screen.ended {
                    output.print(output.style.dim(ScrollScreen.endOfList(count: list.count ?? start)))
                    return
                }
                if let failure = screen.failure { throw ShellError(failure) }
                output.write(ScrollScreen.morePrompt(rows, total: list.count, style: output.style))
                let outcome = await Keyboard.next(timeout: .seconds(86_400))
                output.write(TerminalCodes.clearLine)
                switch outcome {
                case .key(let key) where isStop(key) || key == 4:
                    return
                case .key, .timeout:
                    start = rows.upperBound
                case .cancelled:
                    throw .cancelled
                case .closed:
                    return
                }
            }
        }
    }

    /// Draws `rows`, then redraws them in place as pages load (on a paging event or a
    /// resize, at least every second), until none is pending, or until `q` is pressed
    /// (`stopped`).
    private static func screenful(_ list: PagedList<Breed>, rows: Range<Int>, layout: StreamingColumns,
                                  changed: ChangeCounter, output: Output) async throws(ShellError) -> (ScrollScreen, stopped: Bool) {
        var drawing = RedrawnLines()
        // The screen last drawn: what q stops with.
        var drawn: ScrollScreen?
        return try await RedrawLoop.run(every: .seconds(1), changes: { changed.value }) { () throws(ShellError) -> (ScrollScreen, stopped: Bool)? in
            let screen = ScrollScreen(list, rows: rows, layout: layout, style: output.style)
            output.write(drawing.replace(with: screen.lines, cursor: .below))
            drawn = screen
            return screen.pending ? nil : (screen, false)
        } react: { input throws(ShellError) -> (ScrollScreen, stopped: Bool)? in
            switch input {
            case .cancelled: throw .cancelled
            case .keys(let bytes) where bytes.first.map(isStop) == true: return drawn.map { ($0, stopped: true) }
            // Other keys wait for the screen to be complete.
            case .keys, .closed: return nil
            }
        }
    }

    /// q or Q: stop scrolling.
    private static func isStop(_ key: UInt8) -> Bool { key == UInt8(ascii: "q") || key == UInt8(ascii: "Q") }
}
