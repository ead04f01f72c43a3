import CatFactsKit

extension Command {
    /// `show N` / `show NAME`.
    static let show = Command(
        name: "show", synopsis: "show N | show NAME", summary: "one breed in full",
        details: """
            Shows every field of a breed; a field the service leaves empty says (not given).
            N is the number next to the breed in the last listing (breeds, scroll, group,
            sort, filter, search); NAME is a breed's name, any case, quotes not needed
            (show turkish van). Tab completes the names the shell has seen.
            """,
        completion: .breedNames
    ) { session, arguments throws(ShellError) in
        guard !arguments.values.isEmpty else { throw arguments.usage("a number or a name is missing") }
        let text = arguments.text(from: 0)
        let breed: Breed
        if arguments.values.count == 1, let number = Int(text) {
            guard let listed = session.numbered.breed(numbered: number) else {
                throw ShellError("no breed is numbered \(number) (\(session.numbered.shown))", advice: "breeds lists a page; show NAME works too")
            }
            breed = listed
        } else {
            breed = try await session.request { () async throws(CatFactsError) in
                try await session.client.breed(named: text)
            }
            session.seen.add([breed])
            session.noteUnlabelledResult()
        }
        session.output.show(BreedDetail.report(breed, source: session.offlineSource))
    }
}
