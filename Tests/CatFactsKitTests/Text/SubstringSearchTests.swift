@testable import CatFactsKit
import Testing

@Suite("String.holds: the library's one substring test, byte for byte in UTF-8")
struct SubstringSearchTests {
    @Test func findsAPartAtTheStartTheMiddleAndTheEnd() {
        #expect("request header too large".holds("request"))
        #expect("request header too large".holds("header"))
        #expect("request header too large".holds("large"))
        #expect("request header too large".holds("request header too large"))
    }

    @Test func anEmptyPartIsInEveryText() {
        #expect("".holds(""))
        #expect("abc".holds(""))
    }

    @Test func aPartLongerThanTheTextOrOnlyPartlyThereIsNot() {
        #expect(!"ab".holds("abc"))
        #expect(!"".holds("a"))
        #expect(!"heade".holds("header"))
        #expect(!"aab".holds("abb"))
        #expect(!"Header".holds("header"))  // exact bytes: callers fold or lowercase first
    }

    @Test func textWithNULAndNonASCIIIsSearchedWhole() {
        #expect("a\u{0}b\u{0}ébène".holds("bène"))
        #expect("a\u{0}bc".holds("\u{0}b"))
        #expect(!"a\u{0}bc".holds("\u{0}c"))
        // Scalar by scalar: a base letter is found before its combining mark.
        #expect("e\u{301}".holds("e"))
    }

    @Test func aQueryMatchesAFieldThatHoldsItsFoldedValue() {
        #expect(TextFolding.fold("Short, Ébène").holds(TextFolding.fold("EBENE")))
        #expect(!TextFolding.fold("Short").holds(TextFolding.fold("long")))
    }
}
