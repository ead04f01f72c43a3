@testable import CatFactsKit
import Testing

@Suite("The prefix index: folded names in one buffer, searched in place")
struct PrefixIndexTests {
    /// Names sharing their first eight bytes and more, differing only in case or accents,
    /// shorter than eight bytes, empty, and non-ASCII: the order must be the folded names'
    /// byte order, ties by position.
    private let names = ["Amber Highland Rex 10", "amber highland rex 2", "Ébène", "ebene", "", "Ab", "AMBER HIGHLAND REX 1",
                         "Øresund Van", "a"]

    @Test func searchesFindWhatFoldedStringsFindInNameOrder() {
        let index = PrefixIndex(names: names)
        let folded = names.map(TextFolding.fold)
        for prefix in ["", "a", "am", "amber highland rex 1", "AMBER highland", "ébè", "EBENE", "øre", "z", "ab", "abc"] {
            let key = TextFolding.fold(prefix)
            let expected = folded.indices.filter { folded[$0].utf8.starts(with: key.utf8) }
                .sorted { folded[$0].utf8.lexicographicallyPrecedes(folded[$1].utf8) || (folded[$0] == folded[$1] && $0 < $1) }
            #expect(index.positions(withPrefix: key, limit: .max) == expected, "\(prefix)")
        }
        #expect(index.positions(withPrefix: "amber highland rex 1", limit: .max) == [6, 0])
        #expect(index.positions(withPrefix: "ebene", limit: .max) == [2, 3])
        #expect(index.positions(withPrefix: "a", limit: 2) == [8, 5])
    }

    @Test func foldedNamesComeBackAsTheyWereFolded() {
        let index = PrefixIndex(names: names)
        #expect(index.count == names.count)
        #expect((0..<index.count).map(index.foldedName(at:)) == names.map(TextFolding.fold))
        var bytes: [UInt8] = []
        TextFolding.appendFolded("Crème BRÛLÉE 42", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "creme brulee 42")
    }

    @Test func anEmptyIndexFindsNothing() {
        let index = PrefixIndex(names: [String]())
        #expect(index.count == 0)
        #expect(index.positions(withPrefix: "a", limit: 5) == [])
    }

    @Test func theFingerprintIsTheFNV1aOfTheFoldedNamesEachEndedByNUL() {
        let index = PrefixIndex(names: ["Ab", "c"])
        #expect(CatalogFingerprint.of(index) == "2-" + FNV1a.hex(FNV1a.hash64(Array("ab\0c\0".utf8))))
    }
}
