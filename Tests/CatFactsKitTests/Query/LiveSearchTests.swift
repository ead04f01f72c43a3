import CatFactsKit
import CatFactsMock
import Testing

@Suite("Live search: the latest text only, debounced, the breeds loaded once")
struct LiveSearchTests {
    @Test func aBurstOfTypingIsAnsweredOnceForItsLastText() async throws {
        try await withMock { client, server in
            let heard = Locked<[LiveSearch.Answer]>([])
            let search = LiveSearch(client: client, debounce: .milliseconds(100), limit: 3) { answer in
                heard.withLock { $0.append(answer) }
            }
            search.set("S")
            search.set("Si")
            search.set("SIB")
            let end = ContinuousClock.now + .seconds(5)
            while heard.withLock({ $0.isEmpty }), ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(250))
            let answers = heard.withLock { $0 }
            #expect(answers.map(\.generation) == [3])
            #expect(answers.first?.text == "SIB")
            #expect(try answers.first?.result.get().map(\.name) == ["Siberian"])
            #expect(answers.first?.source == .network)
            #expect(answers.first?.json.hasSuffix(#"],"source":"network","text":"SIB"}"#) == true)
            search.close()
            search.set("Ab")
            try await Task.sleep(for: .milliseconds(250))
            #expect(heard.withLock { $0.count } == 1, "nothing after close")
            #expect(server.requestCount(path: "/breeds") == 1)
        }
    }
}
