import Foundation
import Testing
@testable import CatFactsKit

/// The HTTP-date parser that replaced `DateFormatter` (which would bring ICU into the library).
struct HTTPDateTests {
    /// RFC 9110's own example, in its three forms: 1994-11-06 08:49:37 UTC.
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func everyFormRFC9110AllowsIsRead(text: String) {
        #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == 784_111_777)
    }

    @Test func monthNamesAreCaseInsensitiveAndLeapDaysCount() {
        #expect(HTTPDate.parse("Thu, 29 FEB 2024 23:59:60 GMT")?.timeIntervalSince1970 == 1_709_251_200)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT")?.timeIntervalSince1970 == 0)
    }

    @Test func twoDigitYearsOfRFC850AreNearTheirOwnCentury() {
        #expect(HTTPDate.parse("Friday, 01-Jan-99 00:00:00 GMT")?.timeIntervalSince1970 == 915_148_800)
        #expect(HTTPDate.parse("Saturday, 01-Jan-00 00:00:00 GMT")?.timeIntervalSince1970 == 946_684_800)
    }

    @Test(arguments: ["", "soon", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                      "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
                      "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 99999999999999999999 08:49:37 GMT",
                      "Sun, 06 Nov -1994 08:49:37 GMT"])
    func anythingElseIsNoDate(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func trimmedDropsWhiteSpaceAndNewlinesAtBothEndsOnly() {
        #expect(" \t a b \r\n".trimmed() == "a b")
        #expect("\u{00A0}x\u{2003}".trimmed() == "x")
        #expect("   ".trimmed() == "")
        #expect("".trimmed() == "")
    }

    @Test func foldingDropsCaseAndAccentsLikeFoundationDid() {
        #expect(TextFolding.fold("Ébène") == "ebene")
        #expect(TextFolding.fold("RagDóll") == TextFolding.fold("ragdoll"))
        #expect(TextFolding.fold("Ébène") == "Ébène".folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
    }
}

/// How errors write seconds, now without `String(format:)`.
struct SecondsFormatTests {
    @Test(arguments: [(0.25, "0.25"), (1.5, "1.5"), (12.345, "12.3"), (123.4, "123"), (0.0123, "0.0123"),
                      (2, "2"), (0.001, "0.001"), (9.999, "10"), (-1.25, "-1.25")])
    func threeSignificantDigitsAsPercentG(value: Double, text: String) {
        #expect(CatFactsError.format(value) == text)
    }

    @Test func hugeAndNonFiniteValuesDoNotTrap() {
        #expect(CatFactsError.format(.infinity) == "inf")
        #expect(CatFactsError.format(9.2e18) == "9.2e+18")
    }
}
