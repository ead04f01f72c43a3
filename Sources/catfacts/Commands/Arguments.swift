import CatFactsKit

/// A command's arguments as typed, with the checks commands share; every failure is a
/// usage error that shows the command's synopsis.
struct Arguments: Sendable {
    /// The words after the command name.
    let values: [String]
    /// The command's usage line, for error messages.
    let synopsis: String

    /// A usage error: what was wrong, and the usage line as what to try.
    func usage(_ why: String) -> ShellError {
        ShellError(why, advice: "usage: \(synopsis)")
    }

    /// Fails unless there are no arguments.
    func expectNone() throws(ShellError) {
        try expect(atMost: 0)
    }

    /// Fails when there are more than `count` arguments.
    func expect(atMost count: Int) throws(ShellError) {
        guard values.count <= count else {
            let extra = values.dropFirst(count).map { "'\($0)'" }.joined(separator: " ")
            throw usage("unexpected \(extra)")
        }
    }

    /// The argument at `index` as a whole number in `range`, `nil` when absent.
    func integer(at index: Int, _ name: String, in range: ClosedRange<Int>) throws(ShellError) -> Int? {
        guard index < values.count else { return nil }
        return try Self.integer(values[index], name, in: range, synopsis: synopsis)
    }

    /// `text` as a whole number in `range`.
    static func integer(_ text: String, _ name: String, in range: ClosedRange<Int>, synopsis: String) throws(ShellError) -> Int {
        guard let value = Int(text) else {
            throw ShellError("'\(text)' is not a \(name)", advice: "usage: \(synopsis)")
        }
        guard range.contains(value) else {
            let bounds = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)..\(range.upperBound)"
            throw ShellError("\(name) \(value) is out of range (\(bounds))", advice: "usage: \(synopsis)")
        }
        return value
    }

    /// The argument at `index` as a breed field.
    func field(at index: Int) throws(ShellError) -> Breed.Field {
        guard index < values.count else { throw usage("a field is missing") }
        guard let field = Breed.Field(typed: values[index]) else {
            throw ShellError("'\(values[index])' is not a field",
                             advice: "the fields are \(Breed.Field.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return field
    }

    /// The arguments from `index` on, joined by spaces (a breed name typed unquoted).
    func text(from index: Int) -> String {
        values.dropFirst(index).joined(separator: " ")
    }

    /// Splits out `--name VALUE` / `--name=VALUE` options (those in `valued`) and `--flag`
    /// flags (those in `flags`); the rest stay positional, in order.
    func options(valued: Set<String> = [], flags: Set<String> = []) throws(ShellError) -> (positional: [String], options: [String: String]) {
        var positional: [String] = []
        var options: [String: String] = [:]
        var index = 0
        while index < values.count {
            let word = values[index]
            index += 1
            guard word.hasPrefix("--"), word.count > 2 else {
                positional.append(word)
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            if flags.contains(name), parts.count == 1 {
                options[name] = ""
            } else if valued.contains(name) {
                if parts.count == 2 {
                    options[name] = parts[1]
                } else if index < values.count {
                    options[name] = values[index]
                    index += 1
                } else {
                    throw usage("\(name) needs a value")
                }
            } else {
                throw usage("unknown option \(name)")
            }
        }
        return (positional, options)
    }
}

extension Arguments {
    /// `--page N` and `--all` split out (a query's paging), the other words positional.
    func queryPaging() throws(ShellError) -> (positional: [String], choice: QueryPageChoice) {
        let parsed = try self.options(valued: ["--page"], flags: ["--all"])
        if parsed.options["--all"] != nil {
            guard parsed.options["--page"] == nil else { throw usage("give --page N or --all, not both") }
            return (parsed.positional, .all)
        }
        let page = try parsed.options["--page"].map { (text) throws(ShellError) in
            try Self.integer(text, "page number", in: 1...Int.max, synopsis: synopsis)
        } ?? 1
        return (parsed.positional, .page(page))
    }

    /// A field and at most `extra` words after it (`group FIELD`, `sort FIELD [desc]`), with
    /// `--page N` or `--all`.
    func fieldQuery(extraWords extra: Int) throws(ShellError) -> (field: Breed.Field, extra: [String], choice: QueryPageChoice) {
        let (positional, choice) = try queryPaging()
        guard positional.count <= 1 + extra else { throw usage("unexpected '\(positional[1 + extra])'") }
        let field = try Arguments(values: positional, synopsis: synopsis).field(at: 0)
        return (field, Array(positional.dropFirst()), choice)
    }
}

extension Arguments {
    /// The page a listing of the API's pages asks for: `PAGE` or `--page N` (default 1), and
    /// the options in `valued` (e.g. `--max-length`). `--all` is refused with where every
    /// row is: `scroll` walks them a window at a time, `sort breed --all` lists the breeds.
    func listingPage(valued: Set<String> = []) throws(ShellError) -> (page: Int, options: [String: String]) {
        let parsed = try options(valued: valued.union(["--page"]), flags: ["--all"])
        if parsed.options["--all"] != nil {
            throw ShellError("--all would print every page of the server's list",
                             advice: "scroll walks it a window at a time; sort breed --all lists every breed")
        }
        guard parsed.positional.count <= 1 else { throw usage("unexpected '\(parsed.positional[1])'") }
        if parsed.positional.first != nil, parsed.options["--page"] != nil {
            throw usage("give PAGE or --page N, not both")
        }
        let text = parsed.positional.first ?? parsed.options["--page"]
        let page = try text.map { (text) throws(ShellError) in
            try Self.integer(text, "page number", in: 1...Int.max, synopsis: synopsis)
        } ?? 1
        var options = parsed.options
        options["--page"] = nil
        return (page, options)
    }
}

extension Breed.Field {
    /// The field a user typed: its name in any case, or "name" for the breed field (what
    /// people call it).
    init?(typed: String) {
        let text = typed.lowercased()
        self.init(rawValue: text == "name" ? "breed" : text)
    }
}
