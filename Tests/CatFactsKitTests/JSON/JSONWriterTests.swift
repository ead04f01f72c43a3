import CatFactsFoundation
@testable import CatFactsKit
import Foundation
import Testing

@Suite("JSONWriter: the bytes JSONEncoder gives, for every value handed out")
struct JSONWriterTests {
    /// Every control byte, the characters JSON escapes, a slash, non-ASCII and an emoji.
    private static let awkward = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        + #""\/ Ébène 🐈 \u{7F}"#

    /// Foundation's `JSONEncoder` with the options the library promises to match.
    static func foundation<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "encoding failed"
    }

    /// The writer, the library's own encoder (JSONTreeEncoder) and Foundation's write the same bytes.
    private func expectSameBytes<Value: Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) {
        let written = JSONOutput.string(value)
        #expect(written == Self.foundation(value), sourceLocation: sourceLocation)
        #expect(written == JSONOutput.encoded(value), sourceLocation: sourceLocation)
        #expect(value is any JSONWritable, "the fast path was not taken", sourceLocation: sourceLocation)
    }

    @Test func breedsWithAwkwardTextAndAbsentFields() {
        expectSameBytes(Breed(breed: Self.awkward, country: "Côte d'Ivoire", origin: nil, coat: "Short", pattern: Self.awkward))
        expectSameBytes(Breed(breed: "Aegean"))
        for breed in BundledCatalog.breeds { expectSameBytes(breed) }
        for fact in BundledCatalog.facts { expectSameBytes(fact) }
    }

    @Test func factsAndPages() {
        let fetched = Timestamp(timeIntervalSince1970: 1_790_000_000.25)
        expectSameBytes(Fact(Self.awkward, length: 7))
        expectSameBytes(Page(number: 2, lastPage: 5, perPage: 3, total: 14, items: Array(BundledCatalog.breeds.prefix(3)),
                             source: .cache, fetchedAt: fetched))
        expectSameBytes(Page(number: 9, lastPage: 1, perPage: 10, total: 0, items: [Breed](), source: .network, fetchedAt: fetched))
        expectSameBytes(Page(number: 1, lastPage: 1, perPage: 2, total: 2, items: [Fact("a\nb"), Fact("é", length: 1)],
                             source: .offlineCatalog, fetchedAt: fetched))
    }

    @Test func aPageDecodedIntoAnArenaIsWrittenFromItWithTheBytesOfItsBreeds() throws {
        let fetched = Timestamp(timeIntervalSince1970: 1_790_000_000.25)
        let breeds = [Breed(breed: Self.awkward, country: "Côte d'Ivoire", origin: nil, coat: "Short", pattern: Self.awkward),
                      Breed(breed: "Aegean")] + BundledCatalog.breeds
        var builder = BreedArenaBuilder(textCapacity: 16, breedCapacity: 1)
        for breed in breeds { builder.append(breed) }
        let fromArena = Page(number: 1, lastPage: 1, perPage: breeds.count, total: breeds.count, arena: builder.finish(),
                             source: .network, fetchedAt: fetched)
        let fromValues = Page(number: 1, lastPage: 1, perPage: breeds.count, total: breeds.count, items: breeds,
                              source: .network, fetchedAt: fetched)
        #expect(fromArena.arena?.count == breeds.count)
        #expect(JSONOutput.string(fromArena) == Self.foundation(fromValues))
        // An empty arena, and one the fast path read from the API's bytes.
        let empty = Page(number: 2, lastPage: 1, perPage: 5, total: 0, arena: BreedArena.empty, source: .cache, fetchedAt: fetched)
        #expect(JSONOutput.string(empty) == Self.foundation(Page(number: 2, lastPage: 1, perPage: 5, total: 0, items: [Breed](),
                                                                    source: .cache, fetchedAt: fetched)))
        let body = Array(#"{"current_page":1,"data":[{"breed":"Cr\u00e8me \/ \"Rex\"","country":"","origin":"Natural","coat":"Short","pattern":"Van"}],"last_page":1,"per_page":1,"total":1}"#.utf8)
        let decoded = try ScanningPageDecoder().decodeBreedArena(from: body)
        #expect(decoded.fastPath)
        let page = Page(number: 1, lastPage: 1, perPage: 1, total: 1, arena: decoded.arena, source: .network, fetchedAt: fetched)
        #expect(JSONOutput.string(page) == #"{"fetched_at":"\#(Date(fetched).formatted(.iso8601))","items":[{"breed":"Crème / \"Rex\"","coat":"Short","origin":"Natural","pattern":"Van"}],"last_page":1,"page":1,"per_page":1,"source":"network","total":1}"#)
    }

    @Test func aPageOfFactsDecodedIntoAnArenaIsWrittenFromItWithTheBytesOfItsFacts() throws {
        let fetched = Timestamp(timeIntervalSince1970: 1_790_000_000.25)
        let facts = [Fact(Self.awkward, length: 7), Fact("", length: 0)] + BundledCatalog.facts
        var builder = FactArenaBuilder(textCapacity: 16, factCapacity: 1)
        for fact in facts { builder.append(fact) }
        let fromArena = Page(number: 3, lastPage: 9, perPage: facts.count, total: 400, arena: builder.finish(),
                             source: .cache, fetchedAt: fetched)
        let fromValues = Page(number: 3, lastPage: 9, perPage: facts.count, total: 400, items: facts,
                              source: .cache, fetchedAt: fetched)
        #expect(fromArena.factArena?.count == facts.count)
        #expect(JSONOutput.string(fromArena) == Self.foundation(fromValues))
    }

    @Test func queryAnswers() {
        let breeds = Array(BundledCatalog.breeds.prefix(4))
        expectSameBytes(BreedQueryResult.items(breeds))
        expectSameBytes(BreedQueryResult.items([]))
        expectSameBytes(BreedQueryResult.groups([BreedGroup(key: "Egypt", items: breeds), BreedGroup(key: Self.awkward, items: [])]))
        expectSameBytes(BreedQueryResult.groups([]))
    }

    @Test func theExactTextOfABreed() {
        #expect(JSONOutput.string(Breed(breed: "A\"b\\c/d\u{1}", coat: "Short"))
                == #"{"breed":"A\"b\\c/d\u0001","coat":"Short"}"#)
    }
}
