import CatFactsKit

extension Command {
    /// `group FIELD`.
    static let group = Command(
        name: "group", synopsis: "group FIELD", summary: "the breeds grouped by a field",
        details: """
            Groups every breed by FIELD (breed, country, origin, coat, pattern), groups in
            order, breeds without the field left out. The breeds are numbered across the
            groups for show N. The whole breed list is fetched once, then reused.
            """,
        completion: .positions([ArgumentCompletion.fieldNames])
    ) { session, arguments throws(ShellError) in
        try arguments.expect(atMost: 1)
        var query = BreedQuery()
        let field = try arguments.field(at: 0)
        query.groupBy = field
        try await session.runQuery(query, title: "Breeds by \(field.rawValue)")
    }

    /// `sort FIELD [desc]`.
    static let sort = Command(
        name: "sort", synopsis: "sort FIELD [desc]", summary: "the breeds sorted by a field",
        details: """
            Lists every breed sorted by FIELD (breed, country, origin, coat, pattern), in
            ascending order or, with desc, descending; breeds without the field come last,
            ties go by name.
            """,
        completion: .positions([ArgumentCompletion.fieldNames, ["asc", "desc"]])
    ) { session, arguments throws(ShellError) in
        try arguments.expect(atMost: 2)
        var query = BreedQuery()
        let field = try arguments.field(at: 0)
        query.sortBy = field
        if arguments.values.count == 2 {
            switch arguments.values[1].lowercased() {
            case "desc", "descending": query.descending = true
            case "asc", "ascending": query.descending = false
            default: throw arguments.usage("'\(arguments.values[1])' is not asc or desc")
            }
        }
        try await session.runQuery(query, title: "Breeds by \(field.rawValue)" + (query.descending ? ", descending" : ""))
    }

    /// `filter FIELD VALUE`.
    static let filter = Command(
        name: "filter", synopsis: "filter FIELD VALUE", summary: "the breeds whose field holds a value",
        details: """
            Lists the breeds whose FIELD equals or contains VALUE, ignoring case and accents
            (filter country united). VALUE may have spaces, quoted or not. Tab completes
            the values of FIELD the shell has seen.
            """,
        completion: .fieldThenValue
    ) { session, arguments throws(ShellError) in
        let field = try arguments.field(at: 0)
        let value = arguments.text(from: 1)
        guard !value.isEmpty else { throw arguments.usage("the value is missing") }
        var query = BreedQuery()
        query.whereValues = [field: value]
        try await session.runQuery(query, title: "Breeds whose \(field.rawValue) holds '\(value)'")
    }

    /// `search PREFIX`.
    static let search = Command(
        name: "search", synopsis: "search PREFIX", summary: "breeds whose name starts with PREFIX",
        details: """
            Lists the breeds whose name starts with PREFIX, ignoring case and accents
            (search am). PREFIX may have spaces. Tab completes the names the shell has seen.
            """,
        completion: .breedNames
    ) { session, arguments throws(ShellError) in
        let prefix = arguments.text(from: 0)
        guard !prefix.isEmpty else { throw arguments.usage("the prefix is missing") }
        var query = BreedQuery()
        query.search = prefix
        try await session.runQuery(query, title: "Breeds starting with '\(prefix)'")
    }
}
