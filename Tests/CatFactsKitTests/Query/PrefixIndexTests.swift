@_spi(_Unicode) import Swift
@testable import CatFactsKit
import CatFactsMock
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

    /// Enough names for the radix sort's splitting (runs over 1024) and its sixteen-byte
    /// runs: long shared prefixes, names that are prefixes of others, duplicates, a NUL,
    /// case, accents, combining marks and scalars past the Latin table. The whole order
    /// (the empty prefix) must be the folded bytes' order, ties by position.
    @Test func aLargeIndexOrdersEveryNameByItsFoldedBytesThenPosition() {
        let stems = ["", "a", "ab", "Ab", "the same long prefix shared by many names ", "the same long prefix shared by many names",
                     "Ébène ", "e\u{301}bene ", "ẞ ", "ǅ", "Σ ", "x\u{0}y", "zz"]
        var names: [String] = []
        var state: UInt64 = 7
        for _ in 0..<6000 {
            state = SplitMix64.mix(state)
            let stem = stems[Int(state % UInt64(stems.count))]
            let tail = state >> 8 % 4 == 0 ? "" : String(state >> 20 % 50)
            names.append(stem + tail)
        }
        let index = PrefixIndex(names: names)
        let folded = names.map { Array(TextFolding.fold($0).utf8) }
        let expected = folded.indices.sorted { a, b in
            folded[a] != folded[b] ? folded[a].lexicographicallyPrecedes(folded[b]) : a < b
        }
        #expect(index.positions(withPrefix: "", limit: .max) == expected)
        let key = TextFolding.fold("The same long prefix shared by many names 1")
        #expect(index.positions(withPrefix: key, limit: .max) == expected.filter { folded[$0].starts(with: key.utf8) })
    }

    /// The fold, scalar by scalar and through its Latin table, is the rule it states: the
    /// whole text decomposed (NFD), nonspacing marks removed, lowercased.
    @Test func foldingEveryLatinScalarAndOthersFollowsTheRule() {
        func rule(_ text: String) -> String {
            var scalars = String.UnicodeScalarView()
            for scalar in text._nfd where scalar.properties.generalCategory != .nonspacingMark { scalars.append(scalar) }
            return String(scalars).lowercased()
        }
        var texts = (0x80..<0x300).compactMap { Unicode.Scalar(UInt32($0)).map { "a\($0)B" } }
        texts += ["Ragdóll", "RAGDOLL", "e\u{301}", "ẞtraße", "ΣΊΣΥΦΟΣ", "Øresund", "İstanbul", "ǅemal", "👍🏽 cat", "한국"]
        for text in texts {
            #expect(TextFolding.fold(text) == rule(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            var bytes: [UInt8] = []
            TextFolding.appendFolded(text, to: &bytes)
            #expect(bytes == Array(rule(text).utf8))
        }
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
