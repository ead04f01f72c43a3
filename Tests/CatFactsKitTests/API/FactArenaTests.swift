import CatFactsFoundation
@testable import CatFactsKit
import Foundation
import Testing

@Suite("Decoding fact pages into one buffer: the fast path for the API's shape, the scanner for the rest")
struct FactArenaTests {
    private let scanning = ScanningPageDecoder()
    private let foundation = FoundationPageDecoder()

    /// A page of `items` (each a fact object's JSON) in the API's shape.
    private func page(_ items: [String]) -> [UInt8] {
        Array(#"{"current_page":1,"data":["#.utf8) + Array(items.joined(separator: ",").utf8)
            + Array(#"],"first_page_url":"https:\/\/catfact.ninja\/facts?page=1","from":1,"last_page":1,"per_page":"\#(max(items.count, 1))","total":\#(items.count)}"#.utf8)
    }

    private func fact(_ text: String, _ length: Int) -> String {
        #"{"fact":"\#(text)","length":\#(length)}"#
    }

    @Test func theAPIShapeTakesTheFastPathAndLaysTheTextOutAsC() throws {
        let body = page([fact("Cats sleep 70% of their lives.", 30), fact("", 0),
                         fact("A \\\"quoted\\\" \\/ slash, a tab\\t and caf\\u00e9 \\ud83d\\ude3a", 41),
                         fact("Caf\u{E9} \u{1F63A} as UTF-8", 17)])
        let decoded = try scanning.decodeFactArena(from: body)
        #expect(decoded.fastPath)
        let arena = decoded.arena
        #expect(arena.count == 4 && !arena.hasEmbeddedNUL)
        let text = Array(UnsafeBufferPointer(start: arena.text, count: arena.textSize))
        #expect(text.filter { $0 == 0 }.count == arena.count)
        #expect(String(decoding: text, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false).prefix(2)
                == ["Cats sleep 70% of their lives.", ""])
        #expect(try arena.facts() == foundation.decodePage(Fact.self, from: body).items)
        #expect(arena.fact(at: 2) == Fact("A \"quoted\" / slash, a tab\t and caf\u{E9} \u{1F63A}", length: 41))
        #expect((0..<4).map { arena.lengths[$0] } == [30, 0, 41, 17])
    }

    /// Each of these leaves the fast path; the scanner reads the same page, with Foundation's
    /// answer: the same facts, or an error where Foundation has one.
    @Test(arguments: [
        #"{"fact":"A","length":1,"extra":true}"#,  // an unknown key
        #"{"length":1,"fact":"A"}"#,  // another order
        #"{"fact":"A"}"#,  // no length: counted
        #"{"fact":"A","length":"7"}"#,  // a length as a string
        #"{"fact":"A","length":null}"#,  // a null length: counted
        #"{"fact":"A","length":-3}"#,  // a negative length
        #"{"fact":"A","length":12 }"#,  // white space
        #"{"fact": "A","length":1}"#,  // white space
        #"{"fact":"A\u0000B","length":3}"#,  // a NUL
        #"{"fact":"A","length":1,"fact":"Z"}"#,  // a key twice
        #"{"fact":"A","length":1234567890123456789}"#,  // more digits than the fast path reads
        #"{"fact":"A","length":1.5}"#,  // a fraction
        #"{"fact":"A","length":1e3}"#,  // an exponent
        #"{"fact":"A","length":01}"#,  // a leading zero
        "{\"fact\":\"A\u{1}\",\"length\":1}",  // a raw control character
        #"{"fact":7,"length":1}"#,  // a text that is a number
    ])
    func otherShapesGoThroughTheScannerWithFoundationsAnswer(_ odd: String) throws {
        let body = page([fact("First", 5), odd, fact("Last", 4)])
        let theirs = Result { try foundation.decodePage(Fact.self, from: body).items }
        do {
            let decoded = try scanning.decodeFactArena(from: body)
            #expect(!decoded.fastPath)
            #expect(decoded.arena.count == 3)
            #expect(decoded.arena.facts() == (try? theirs.get()), "Foundation: \(theirs)")
        } catch {
            #expect(throws: (any Error).self, "we refused (\(error)); Foundation did not") { try theirs.get() }
        }
    }

    @Test func aNulInAFactIsKeptForSwiftAndFlaggedForC() throws {
        let arena = try scanning.decodeFactArena(from: page([fact("A\\u0000B", 3)])).arena
        #expect(arena.hasEmbeddedNUL && arena.fact(at: 0) == Fact("A\u{0}B", length: 3))
    }

    @Test func aPageOfAnArenaMakesItsFactsOnceWhenRead() throws {
        let arena = try scanning.decodeFactArena(from: page([fact("A", 1), fact("B", 1)])).arena
        var page = Page(number: 1, lastPage: 1, perPage: 2, total: 2, arena: arena, source: .network, fetchedAt: .now)
        #expect(page.count == 2 && page.factArena === arena && page.arena == nil)
        #expect(page.items.map(\.text) == ["A", "B"])
        let copy = page
        page.items = [Fact("C")]
        #expect(page.factArena == nil && page.count == 1 && page.items == [Fact("C")])
        #expect(copy.items.map(\.text) == ["A", "B"] && copy.factArena === arena)
    }

    @Test func theStoredLayoutReadsBackAndAnythingDamagedIsRefused() throws {
        let decoded = try scanning.decodeFactArena(from: page([fact("Cats purr.", 10), fact("", 0), fact("Caf\\u00e9", 4)]))
        let archived = decoded.archived
        let back = try #require(archived.withUnsafeBytes { FactArenaPage(archived: $0) })
        #expect(back.arena.facts() == decoded.arena.facts())
        let numbers: [Int] = [back.currentPage, back.lastPage, back.perPage, back.total]
        #expect(numbers == [1, 1, 3, 3])
        for count in 0..<archived.count {
            #expect(Array(archived.prefix(count)).withUnsafeBytes { FactArenaPage(archived: $0) } == nil, "cut at \(count)")
        }
        // The second fact's start moved, a NUL inside a fact the header says has none, the last
        // NUL gone, bad UTF-8, a wrong count, a negative length.
        let facts = 7 * 8, text = facts + 3 * 12
        for (offset, value) in [(facts + 12, UInt8(3)), (text + 2, UInt8(0)), (archived.count - 1, UInt8(ascii: "x")),
                                (archived.count - 2, 0xFF), (4 * 8, 9), (facts + 4 + 7, 0x80)] {
            var damaged = archived
            damaged[offset] = value
            #expect(damaged.withUnsafeBytes { FactArenaPage(archived: $0) } == nil, "byte \(offset) = \(value)")
        }
        let empty = try scanning.decodeFactArena(from: page([]))
        #expect(empty.archived.withUnsafeBytes { FactArenaPage(archived: $0) }?.arena.count == 0)
    }
}
