import CatFactsKit

extension Command {
    /// What `group`, `sort`, `filter` and `search` say about pages, in `help CMD`.
    static let queryPaging = """
        Shown a page at a time, as breeds is (set page-size says how many; next, prev,
        first and last move from here): --page N shows page N, --all the whole answer.
        The breeds are numbered across the whole answer, for show N.
        """

    /// `group FIELD`.
    static let group = Command(
        name: "group", synopsis: "group FIELD [--page N|--all]", summary: "the breeds grouped by a field",
        details: """
            Groups every breed by FIELD (breed, country, origin, coat, pattern), groups in
            order, breeds without the field left out; a group cut by a page edge keeps its
            heading. The whole breed list is fetched once, then reused.

            \(queryPaging)
            """,
        completion: .positions([ArgumentCompletion.fieldNames, ["--page", "--all"]])
    ) { session, arguments throws(ShellError) in
        let (field, _, choice) = try arguments.fieldQuery(extraWords: 0)
        var query = BreedQuery()
        query.groupBy = field
        try await QueryListing.show(QueryListing(query: query, title: "Breeds by \(field.rawValue)"), choice, in: session)
    }

    /// `sort FIELD [desc]`.
    static let sort = Command(
        name: "sort", synopsis: "sort FIELD [desc] [--page N|--all]", summary: "the breeds sorted by a field",
        details: """
            Lists every breed sorted by FIELD (breed, country, origin, coat, pattern), in
            ascending order or, with desc, descending; breeds without the field come last,
            ties go by name.

            \(queryPaging)
            """,
        completion: .positions([ArgumentCompletion.fieldNames, ["asc", "desc", "--page", "--all"]])
    ) { session, arguments throws(ShellError) in
        let (field, extra, choice) = try arguments.fieldQuery(extraWords: 1)
        var query = BreedQuery()
        query.sortBy = field
        if let order = extra.first {
            switch order.lowercased() {
            case "desc", "descending": query.descending = true
            case "asc", "ascending": query.descending = false
            default: throw arguments.usage("'\(order)' is not asc or desc")
            }
        }
        let title = "Breeds by \(field.rawValue)" + (query.descending ? ", descending" : "")
        try await QueryListing.show(QueryListing(query: query, title: title), choice, in: session)
    }

    /// `filter FIELD VALUE`.
    static let filter = Command(
        name: "filter", synopsis: "filter FIELD VALUE [--page N|--all]", summary: "the breeds whose field holds a value",
        details: """
            Lists the breeds whose FIELD equals or contains VALUE, ignoring case and accents
            (filter country united). VALUE may have spaces, quoted or not. Tab completes
            the values of FIELD the shell has seen.

            \(queryPaging)
            """,
        completion: .fieldThenValue
    ) { session, arguments throws(ShellError) in
        let (positional, choice) = try arguments.queryPaging()
        let words = Arguments(values: positional, synopsis: arguments.synopsis)
        let field = try words.field(at: 0)
        let value = words.text(from: 1)
        guard !value.isEmpty else { throw arguments.usage("the value is missing") }
        var query = BreedQuery()
        query.whereValues = [field: value]
        try await QueryListing.show(QueryListing(query: query, title: "Breeds whose \(field.rawValue) holds '\(value)'"), choice, in: session)
    }

    /// `search PREFIX`, and `search` alone: live search.
    static let search = Command(
        name: "search", synopsis: "search [PREFIX [--page N|--all]]", summary: "breeds whose name starts with PREFIX; alone, live search",
        details: """
            Lists the breeds whose name starts with PREFIX, ignoring case and accents
            (search am). PREFIX may have spaces. Tab completes the names the shell has seen.

            \(queryPaging)

            search alone, at a terminal, or Ctrl-S at the prompt, is live search: the
            matches follow each key typed (searched once typing pauses for
            \(LiveSearchScreen.debounceMilliseconds) ms, an answer to older text never shown), up to a
            screenful under the search line, with (cache) or (offline catalog) when they do
            not come from the server. Up and Down (or Ctrl-P, Ctrl-N) select, Enter shows the
            selected breed as show does, Backspace and Ctrl-U edit, Esc (or Ctrl-D) leaves
            and gives the prompt back, with the line typed before Ctrl-S. (Ctrl-S is not XOFF
            here: the shell turns flow control off.) Not at a terminal (a script, a pipe, -o,
            --json, --csv) search needs a PREFIX.
            """,
        completion: .breedNames
    ) { session, arguments throws(ShellError) in
        if arguments.values.isEmpty, LiveSearchScreen.isAvailable(in: session) {
            try await LiveSearchScreen.run(in: session)
            return
        }
        let (positional, choice) = try arguments.queryPaging()
        let prefix = Arguments(values: positional, synopsis: arguments.synopsis).text(from: 0)
        guard !prefix.isEmpty else {
            throw arguments.usage("the prefix is missing (search alone, live search, needs a terminal)")
        }
        var query = BreedQuery()
        query.search = prefix
        try await QueryListing.show(QueryListing(query: query, title: "Breeds starting with '\(prefix)'"), choice, in: session)
    }
}
