import CatFactsFoundation
@testable import CatFactsKit
import Foundation
import Testing

@Suite("Decoding breed pages into one buffer: the fast path for the API's shape, the scanner for the rest")
struct BreedArenaTests {
    private let scanning = ScanningPageDecoder()
    private let foundation = FoundationPageDecoder()

    /// A page of `items` (each a breed object's JSON) in the API's shape.
    private func page(_ items: [String]) -> [UInt8] {
        Array(#"{"current_page":1,"data":["#.utf8) + Array(items.joined(separator: ",").utf8)
            + Array(#"],"first_page_url":"https:\/\/catfact.ninja\/breeds?page=1","from":1,"last_page":1,"per_page":"\#(max(items.count, 1))","total":\#(items.count)}"#.utf8)
    }

    private func breed(_ name: String, _ country: String = "France", _ origin: String = "Natural\\/Standard",
                       _ coat: String = "Short", _ pattern: String = "") -> String {
        #"{"breed":"\#(name)","country":"\#(country)","origin":"\#(origin)","coat":"\#(coat)","pattern":"\#(pattern)"}"#
    }

    @Test func theAPIShapeTakesTheFastPathAndLaysTheTextOutAsC() throws {
        let body = page([breed("Abyssinian", "Ethiopia", "Natural\\/Standard", "Short", "Ticked"),
                         breed("Aegean", "Greece", "", "", ""), breed("Caf\u{E9} \u{1F63A}", "C\u{F4}te", "a\\tb\\\"c\\\\"),
                         breed("Caf\\u00e9 \\ud83d\\ude3a", "C\\u00F4te\\u20ac")])
        let decoded = try scanning.decodeBreedArena(from: body)
        #expect(decoded.fastPath)
        let arena = decoded.arena
        #expect(arena.count == 4 && !arena.hasEmbeddedNUL)
        let text = Array(UnsafeBufferPointer(start: arena.text, count: arena.textSize))
        #expect(text.filter { $0 == 0 }.count == 5 * arena.count)
        #expect(String(decoding: text, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false).prefix(10)
                == ["Abyssinian", "Ethiopia", "Natural/Standard", "Short", "Ticked", "Aegean", "Greece", "", "", ""])
        #expect(try arena.breeds() == foundation.decodePage(Breed.self, from: body).items)
        #expect(arena.breed(at: 2) == Breed(breed: "Caf\u{E9} \u{1F63A}", country: "C\u{F4}te", origin: "a\tb\"c\\", coat: "Short"))
        #expect(arena.breed(at: 3) == Breed(breed: "Caf\u{E9} \u{1F63A}", country: "C\u{F4}te\u{20AC}", origin: "Natural/Standard",
                                           coat: "Short"))
    }

    /// Each of these leaves the fast path; the scanner reads the same page, with Foundation's
    /// answer.
    @Test(arguments: [
        #"{"breed":"A","country":"B","origin":"C","coat":"D","pattern":"E","extra":1}"#,  // an unknown key
        #"{"country":"B","breed":"A","origin":"C","coat":"D","pattern":"E"}"#,  // another order
        #"{"breed":"A","country":null,"origin":"C","coat":"D","pattern":"E"}"#,  // null
        #"{"breed":"A","country":"B","origin":"C","coat":"D"}"#,  // a key missing
        #"{"breed":"A", "country":"B","origin":"C","coat":"D","pattern":"E"}"#,  // white space
        #"{"breed":"A\u0000","country":"B","origin":"C","coat":"D","pattern":"E"}"#,  // a NUL
        #"{"breed":" A ","country":"B\u00a0","origin":"\n","coat":"D","pattern":"E"}"#,  // ends to trim
        #"{"breed":"A","country":"B","origin":"C","coat":"D","pattern":"E","breed":"Z"}"#,  // a key twice
    ])
    func otherShapesGoThroughTheScannerWithFoundationsAnswer(_ odd: String) throws {
        let body = page([breed("First"), odd, breed("Last")])
        let decoded = try scanning.decodeBreedArena(from: body)
        #expect(!decoded.fastPath)
        #expect(try decoded.arena.breeds() == foundation.decodePage(Breed.self, from: body).items)
        #expect(decoded.arena.count == 3)
    }

    @Test func aNulInAFieldIsKeptForSwiftAndFlaggedForC() throws {
        let body = page([breed("A\\u0000B")])
        let arena = try scanning.decodeBreedArena(from: body).arena
        #expect(arena.hasEmbeddedNUL)
        #expect(arena.breed(at: 0).breed == "A\u{0}B")
    }

    @Test func anEmptyNameIsTheScannersError() {
        let body = page([breed("First"), breed("")])
        do {
            _ = try scanning.decodeBreedArena(from: body)
            Issue.record("an empty name was decoded")
        } catch {
            #expect(error.description == "breed name is empty at 'data[1].breed'")
        }
    }

    @Test func invalidUTF8LeavesTheFastPathAndIsRefusedWhereItIs() throws {
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            var body = page([breed("First"), breed("AB?")])
            let at = try #require(body.firstIndex(of: UInt8(ascii: "?")))
            body.replaceSubrange(at...at, with: bad)
            #expect(throws: DecodeFailure.self) { try scanning.decodeBreedArena(from: body) }
            #expect(JSONScanner.isUTF8(bad.withUnsafeBufferPointer { $0 }) == false)
        }
        #expect(Array("é😺€".utf8).withUnsafeBufferPointer { JSONScanner.isUTF8($0) })
    }

    @Test func aThousandBreedPageOfTheMockTakesTheFastPath() throws {
        let names = (0..<1000).map { breed("Breed \($0)", "Country \($0 % 7)", "Natural\\/Standard", $0 % 2 == 0 ? "Short" : "") }
        let body = page(names)
        let decoded = try scanning.decodeBreedArena(from: body)
        #expect(decoded.fastPath && decoded.arena.count == 1000)
        #expect(try decoded.arena.breeds() == foundation.decodePage(Breed.self, from: body).items)
    }

    @Test func aPageOfAnArenaMakesItsBreedsOnceWhenRead() throws {
        let arena = try scanning.decodeBreedArena(from: page([breed("A"), breed("B")])).arena
        var page = Page(number: 1, lastPage: 1, perPage: 2, total: 2, arena: arena, source: .network, fetchedAt: .now)
        #expect(page.count == 2 && page.arena === arena)
        #expect(page.items.map(\.breed) == ["A", "B"])
        let copy = page
        page.items = [Breed(breed: "C")]
        #expect(page.arena == nil && page.count == 1 && page.items == [Breed(breed: "C")])
        #expect(copy.items.map(\.breed) == ["A", "B"] && copy.arena === arena)
    }

    @Test func theStoredLayoutReadsBackAndAnythingDamagedIsRefused() throws {
        let decoded = try scanning.decodeBreedArena(from: page([breed("Abyssinian", "Ethiopia"), breed("Aegean", "", "", "", "")]))
        let archived = decoded.archived
        let back = try #require(archived.withUnsafeBytes { BreedArenaPage(archived: $0) })
        #expect(back.arena.breeds() == decoded.arena.breeds())
        let numbers: [Int] = [back.currentPage, back.lastPage, back.perPage, back.total]
        #expect(numbers == [1, 1, 2, 2])
        for count in 0..<archived.count {
            #expect(Array(archived.prefix(count)).withUnsafeBytes { BreedArenaPage(archived: $0) } == nil, "cut at \(count)")
        }
        // A start moved off a field's beginning, the last NUL gone, bad UTF-8, a wrong count.
        for (offset, value) in [(7 * 8 + 4, UInt8(3)), (archived.count - 1, UInt8(ascii: "x")), (archived.count - 3, 0xFF),
                                (4 * 8, 9)] {
            var damaged = archived
            damaged[offset] = value
            #expect(damaged.withUnsafeBytes { BreedArenaPage(archived: $0) } == nil, "byte \(offset) = \(value)")
        }
    }
}
