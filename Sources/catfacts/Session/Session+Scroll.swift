import CatFactsKit

extension Session {
    /// Rows `scroll` prints in a script.
    static let scrollRows = 50
    /// How long a script's `scroll` waits for one row before giving up.
    static let scrollRowTimeout = Duration.seconds(40)

    /// Where `scroll` starts without FROM: the first breed of the last breeds page.
    var defaultScrollStart: Int {
        guard let position, position.kind == .breeds else { return 1 }
        return (position.page - 1) * settings.pageSize + 1
    }

    /// Walks the breeds from number `start` (from 1).
    func scroll(from start: Int) async throws(ShellError) {
        let list = try scrollingList()
        if isInteractive, output == .table {
            try await scrollByScreens(list, from: start - 1)
        } else {
            try await scrollInOrder(list, from: start - 1, count: Self.scrollRows)
        }
        noteUnlabelledResult()
    }

    /// The windowed list of breeds at the session's page size, kept between scrolls (until
    /// the page size changes); pages that failed before are tried again.
    private func scrollingList() throws(ShellError) -> PagedList<Breed> {
        if let scrollList {
            scrollList.retry()
            return scrollList
        }
        let size = settings.pageSize
        // A screenful each side, at least, so the next screen is loaded while this one is read.
        let prefetch = max(2 * size, streams.size.rows)
        let options = PagingOptions(pageSize: size, prefetchDistance: prefetch,
                                    maxCachedItems: max(500, size + 2 * prefetch))
        do {
            let list = try client.breedList(options)
            scrollList = list
            return list
        } catch {
            throw ShellError(error)
        }
    }

    /// Prints `count` rows from `first` (0-based) in order, waiting for each as needed.
    private func scrollInOrder(_ list: PagedList<Breed>, from first: Int, count: Int) async throws(ShellError) {
        // Off a terminal (and without COLUMNS) nothing is cut: a long value pushes its row right.
        let layout = StreamingColumns(width: width, largestNumber: first + count, cutting: width < Self.unlimitedWidth)
        var titled = output != .table
        if output == .csv { console.printRecords([BreedRows.csvHeader]) }
        var shown: [(number: Int, breed: Breed)] = []
        defer { number(shown) }
        for index in first..<(first + count) {
            spinner.start()
            let state = await list.wait(for: index, timeout: Self.scrollRowTimeout)
            spinner.stop()
            noteReachability()
            if Task.isCancelled { throw .cancelled }
            // Titled once the first row is in, so the title can say where the rows come from.
            if !titled {
                console.print(console.style.bold("Breeds from \(first + 1), as they load") + offlineLabel)
                console.print(layout.header(style: console.style))
                titled = true
            }
            switch state {
            case .loaded(let breed):
                shown.append((index + 1, breed))
                switch output {
                case .table: console.print(layout.row(index + 1, breed))
                case .json: console.print(JSONOutput.string(breed))
                case .plain: console.print(BreedRows.plain(index + 1, breed))
                case .csv: console.printRecords([BreedRows.csv(index + 1, breed)])
                }
            case .pastEnd:
                if output == .table { console.print(console.style.dim("(end of the list: \(list.count ?? index) breeds)")) }
                return
            case .failed(let error):
                throw ShellError(error)
            case .pending:
                throw ShellError("breed \(index + 1) did not load within \(Int(Self.scrollRowTimeout.components.seconds)) s",
                                 advice: "scroll \(index + 1) tries again")
            }
        }
        if output == .table { console.print(console.style.dim("(scroll \(first + count + 1) goes on)")) }
    }

    /// A screenful at a time, rows still loading shown as placeholders and redrawn in place
    /// as their pages arrive; any key for the next screenful, q to stop.
    private func scrollByScreens(_ list: PagedList<Breed>, from first: Int) async throws(ShellError) {
        let changed = ChangeCounter()
        list.setListener { _ in changed.bump() }
        defer {
            list.setListener(nil)
            // Not while redrawing in place: a line on stderr would throw the redraw off.
            noteReachability()
        }
        try await Keyboard.withKeys { () async throws(ShellError) in
            console.write(Self.hideCursor)
            defer { console.write(Self.showCursor) }
            var start = first
            var numberedAny = false
            console.print(console.style.bold("Breeds from \(first + 1)") + offlineLabel)
            while true {
                let size = streams.size
                let rows = max(1, size.rows - 2)
                let layout = StreamingColumns(width: size.columns, largestNumber: max(start + rows, list.count ?? 0))
                console.print(layout.header(style: console.style))
                let screen = try await drawScreen(list, rows: start..<(start + rows), layout: layout, changed: changed)
                if numberedAny { numbered.add(screen.loaded) } else { numbered.replace(with: screen.loaded) }
                seen.add(screen.loaded.map(\.breed))
                numberedAny = true
                if screen.stopped { return }
                if screen.ended {
                    console.print(console.style.dim("(end of the list: \(list.count ?? start) breeds)"))
                    return
                }
                if let failure = screen.failure { throw ShellError(failure) }
                let total = list.count.map { " of \($0)" } ?? ""
                console.write(console.style.dim("-- \(start + 1)–\(start + rows)\(total): any key for more, q to stop --"))
                let outcome = await Keyboard.next(timeout: .seconds(86_400))
                console.write("\r\u{1B}[2K")
                switch outcome {
                case .key(let key) where key == UInt8(ascii: "q") || key == UInt8(ascii: "Q") || key == 4:
                    return
                case .key, .timeout:
                    start += rows
                case .cancelled:
                    throw .cancelled
                case .closed:
                    return
                }
            }
        }
    }

    /// What a screenful came to.
    private struct Screen {
        var loaded: [(number: Int, breed: Breed)] = []
        var ended = false
        var failure: CatFactsError?
        /// q was pressed while rows were loading.
        var stopped = false
    }

    /// Draws `rows`, then redraws them in place as pages load (on a paging event or a
    /// resize, at least every second), until none is pending, or until `q` is pressed.
    private func drawScreen(_ list: PagedList<Breed>, rows: Range<Int>, layout: StreamingColumns,
                            changed: ChangeCounter) async throws(ShellError) -> Screen {
        var drawn = 0
        while true {
            var screen = Screen()
            var lines: [String] = []
            var pending = false
            for index in rows {
                switch list.item(at: index) {
                case .loaded(let breed):
                    lines.append(layout.row(index + 1, breed))
                    screen.loaded.append((index + 1, breed))
                case .pending:
                    lines.append(console.style.dim(layout.placeholder(index + 1, "…loading…")))
                    pending = true
                case .failed(let error):
                    lines.append(console.style.red(layout.placeholder(index + 1, "failed: \(error.status.phrase)")))
                    screen.failure = screen.failure ?? error
                case .pastEnd:
                    screen.ended = true
                }
                if screen.ended { break }
            }
            var text = drawn > 0 ? "\u{1B}[\(drawn)A" : ""
            text += lines.map { "\r\u{1B}[2K" + $0 + "\n" }.joined()
            if lines.count < drawn { text += "\u{1B}[J" }
            console.write(text)
            drawn = lines.count
            guard pending else { return screen }
            let seen = changed.value
            let resized = ResizeSignal.current
            let outcome = await Keyboard.next(timeout: .seconds(1)) { changed.value != seen || ResizeSignal.current != resized }
            switch outcome {
            case .cancelled: throw .cancelled
            case .key(let key) where key == UInt8(ascii: "q") || key == UInt8(ascii: "Q"):
                screen.stopped = true
                return screen
            default: continue
            }
        }
    }
}
