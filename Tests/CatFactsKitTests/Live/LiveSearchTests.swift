import CatFactsKit
import CatFactsMock
import Testing

@Suite("Live search: the latest text only, debounced, the breeds loaded once")
struct LiveSearchTests {
    @Test func aBurstOfTypingIsAnsweredOnceForItsLastText() async throws {
        try await withMock { client, server in
            let heard = Locked<[(answer: LiveSearch.Answer, at: ContinuousClock.Instant)]>([])
            // Far longer than three calls of set() take, however busy the machine.
            let debounce = Duration.seconds(2)
            let search = LiveSearch(client: client, debounce: debounce, limit: 3) { answer in
                heard.withLock { $0.append((answer, .now)) }
            }
            search.set("S")
            search.set("Si")
            let typed = ContinuousClock.now
            search.set("SIB")
            try await waitUntil { !heard.withLock { $0.isEmpty } }
            // Watched a while longer: another answer would come from the same load.
            try await Task.sleep(for: .milliseconds(250))
            #expect(try #require(heard.withLock { $0.first?.at }) - typed >= debounce, "searched once the text stood still")
            let answers = heard.withLock { $0.map(\.answer) }
            #expect(answers.map(\.generation) == [3])
            #expect(answers.first?.text == "SIB")
            #expect(try answers.first?.result.get().map(\.breed) == ["Siberian"])
            #expect(answers.first?.source == .network)
            #expect(answers.first?.json.hasSuffix(#"],"source":"network","text":"SIB"}"#) == true)
            search.close()
            search.set("Ab")
            try await Task.sleep(for: .milliseconds(250))
            #expect(heard.withLock { $0.count } == 1, "nothing after close")
            #expect(server.requestCount(path: "/breeds") == 1)
        }
    }

    @Test func droppingTheLastReferenceEndsTheSearchThatWaits() {
        weak var dropped: LiveSearch?
        do {
            // Waits far longer than the test: only dropping the search can end it.
            let search = LiveSearch(debounce: .seconds(600), catalog: { BreedCatalogView(breeds: []) }) { _ in }
            search.set("Si")
            dropped = search
        }
        #expect(dropped == nil, "the waiting search holds the searcher's parts, never the search")
    }
}
