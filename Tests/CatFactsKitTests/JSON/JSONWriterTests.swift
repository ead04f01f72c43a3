@testable import CatFactsKit
import Foundation
import Testing

@Suite("JSONWriter: the bytes JSONEncoder gives, for every value handed out")
struct JSONWriterTests {
    /// Every control byte, the characters JSON escapes, a slash, non-ASCII and an emoji.
    private static let awkward = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        + #""\/ Ébène 🐈 \u{7F}"#

    private func expectSameBytes<Value: Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) {
        let written = JSONOutput.string(value)
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
        let fetched = Date(timeIntervalSince1970: 1_790_000_000.25)
        expectSameBytes(Fact(Self.awkward, length: 7))
        expectSameBytes(Page(number: 2, lastPage: 5, perPage: 3, total: 14, items: Array(BundledCatalog.breeds.prefix(3)),
                             source: .cache, fetchedAt: fetched))
        expectSameBytes(Page(number: 9, lastPage: 1, perPage: 10, total: 0, items: [Breed](), source: .network, fetchedAt: fetched))
        expectSameBytes(Page(number: 1, lastPage: 1, perPage: 2, total: 2, items: [Fact("a\nb"), Fact("é", length: 1)],
                             source: .offlineCatalog, fetchedAt: fetched))
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
