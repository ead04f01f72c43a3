@testable import CatFactsKit
import Testing

@Suite("containsUTF8: String.contains without _StringProcessing")
struct StringSearchTests {
    @Test(arguments: [
        ("abc", "", false), ("", "", false), ("", "a", false), ("abc", "abc", true), ("abc", "abcd", false),
        ("aab", "ab", true), ("header too large", "too large", true), ("ébène", "bèn", true), ("ébène", "ben", false),
        ("http://proxy:3128", "://", true), ("proxy:3128", "://", false), ("🐈 cat", "cat", true), ("a\u{0}b", "\u{0}b", true),
    ])
    func findsExactlyWhatContainsFinds(text: String, part: String, found: Bool) {
        #expect(text.containsUTF8(part) == found)
        #expect(text.contains(part) == found)  // the standard one, as the oracle
        #expect(text[...].containsUTF8(part[...]) == found)
    }

    @Test func foldedTextIsSearchedAsTheQueryEngineSearchesIt() {
        #expect(TextFolding.fold("Côte d'Ivoire").containsUTF8(TextFolding.fold("COTE")))
        #expect(!TextFolding.fold("Egypt").containsUTF8(TextFolding.fold("gyp t")))
    }
}
