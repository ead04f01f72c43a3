import CatFactsFoundation
@testable import CatFactsKit
import CatFactsMock
import Foundation
import Testing

@Suite("The scanning decoder: Foundation's answers, faster, and clear errors on bad bytes")
struct ScanningDecoderTests {
    private let scanning = ScanningPageDecoder()
    private let foundation = FoundationPageDecoder()

    @Test(arguments: [Fixtures.breedsPerPageString, Fixtures.breedsPerPageNumber, Fixtures.breedsPastTheEnd])
    func breedPagesDecodeAsFoundationDecodesThem(_ body: String) throws {
        let bytes = Array(body.utf8)
        let fast = try scanning.decodePage(Breed.self, from: bytes)
        let reference = try foundation.decodePage(Breed.self, from: bytes)
        #expect(fast.items == reference.items)
        let numbers: [Int] = [fast.currentPage, fast.lastPage, fast.perPage, fast.total]
        #expect(numbers == [reference.currentPage, reference.lastPage, reference.perPage, reference.total])
    }

    @Test func factsAndASingleFactDecodeAsFoundationDecodesThem() throws {
        let page = Array(Fixtures.factsWithUnicode.utf8)
        #expect(try scanning.decodePage(Fact.self, from: page).items == foundation.decodePage(Fact.self, from: page).items)
        #expect(try scanning.decodePage(Fact.self, from: page).items[0].text.hasPrefix("A cat\u{2019}s \u{201C}knead"))
        let fact = Array(Fixtures.randomFact.utf8)
        #expect(try scanning.decodeObject(Fact.self, from: fact) == Fact("Cats have 32 muscles in each ear.", length: 33))
    }

    @Test func factsWithSpacesAroundEveryTokenDecodeAsFoundationDecodesThem() throws {
        // Pretty-printed: a space or a line break after each colon (the fact's text is read by
        // string(), which once expected the quote straight after the colon).
        let fact = Array(#"{ "fact" : "Cats purr.", "length" : 10 }"#.utf8)
        #expect(try scanning.decodeObject(Fact.self, from: fact) == Fact("Cats purr.", length: 10))
        let page = Array("""
            {"current_page": 1, "data": [{"fact":\n  "A", "length": 1}, {"length": 1,\t"fact":\t"B"}],
             "last_page": 1, "per_page": "2", "total": 2}
            """.utf8)
        #expect(try scanning.decodePage(Fact.self, from: page).items == foundation.decodePage(Fact.self, from: page).items)
        #expect(try scanning.decodePage(Fact.self, from: page).items.map(\.text) == ["A", "B"])
    }

    @Test func spacingEscapesNumbersAndNullsAreRead() throws {
        let body = """
             { "links" : [ {"url": null, "n": [1, -2.5e+3, 0, true, false, {}, []]} ] ,
              "data" : [ { "breed" : "Caf\\u00e9 \\ud83d\\ude3a\\n" , "country" : null, "origin": "  Natural\\/Standard ",
                           "coat": "", "pattern": "Côte", "extra": {"deep": [[["x"]]]} } ],
              "current_page" : 1.0 , "last_page" : 3, "per_page" : " 25 ", "total" : 51, "from": null, "to": "1" }\t\r\n
            """
        let page = try scanning.decodePage(Breed.self, from: Array(body.utf8))
        #expect(page.items == [Breed(breed: "Café \u{1F63A}", origin: "Natural/Standard", pattern: "Côte")])
        let numbers: [Int] = [page.currentPage, page.lastPage, page.perPage, page.total]
        #expect(numbers == [1, 3, 25, 51])
    }

    /// Found by the differential fuzzer (Tests/Fuzz/corpus/page-decoder/fact-space-before-value.json):
    /// a fact's text after white space (`"fact": "..."`, as pretty-printed JSON has it) was
    /// refused with "expected String at 'fact', found a string".
    @Test func aFactAfterWhiteSpaceIsRead() throws {
        let fact = Array("{\"fact\": \t\n\"Cats purr.\" , \"length\" : 9}".utf8)
        #expect(try scanning.decodeObject(Fact.self, from: fact) == Fact("Cats purr.", length: 9))
        let page = Array(#"{"current_page":1,"data":[{"fact": "Cats purr."}],"last_page":1,"per_page":1,"total":1}"#.utf8)
        #expect(try scanning.decodePage(Fact.self, from: page).items == [Fact("Cats purr.")])
    }

    /// Found by the differential fuzzer (Tests/Fuzz/corpus/page-decoder/duplicate-keys.json):
    /// the scanner kept the last of a key given twice, Foundation's JSONDecoder the first.
    @Test func aKeyGivenTwiceCountsTheFirstTimeAsInFoundation() throws {
        let body = Array(#"{"current_page":1,"current_page":2,"data":[{"breed":"A","breed":"B"}],"data":[],"last_page":1,"per_page":1,"total":1}"#.utf8)
        let fast = try scanning.decodePage(Breed.self, from: body)
        let reference = try foundation.decodePage(Breed.self, from: body)
        #expect(fast.currentPage == 1 && fast.items == [Breed(breed: "A")])
        #expect(fast.currentPage == reference.currentPage && fast.items == reference.items)
    }

    @Test func aSecondValueOfAKeyIsNotReadSoItsTypeDoesNotMatter() throws {
        let fact = Array(#"{"fact":"Cats purr.","length":9,"fact":5,"length":"nine"}"#.utf8)
        #expect(try scanning.decodeObject(Fact.self, from: fact) == Fact("Cats purr.", length: 9))
        #expect(try foundation.decodeObject(Fact.self, from: fact) == Fact("Cats purr.", length: 9))
        let page = Array(#"{"current_page":1,"data":[],"last_page":1,"per_page":1,"total":0,"total":null,"data":{}}"#.utf8)
        #expect(try scanning.decodePage(Breed.self, from: page).total == 0)
    }

    /// Found by the differential fuzzer (Tests/Fuzz/corpus/page-decoder/integer-past-2-pow-53.json):
    /// read through a Double, 9007199254740993.0 came out as ...992; Foundation reads it exactly.
    @Test(arguments: [("9007199254740993.0", 9_007_199_254_740_993), ("1.5e1", 15), ("-10e-1", -1), ("0e999999999", 0),
                      ("-0.0", 0), ("922337203685477580.7e1", Int.max), ("-9223372036854775808e0", Int.min)])
    func wholeNumbersWithAFractionOrAnExponentAreReadExactly(_ text: String, _ value: Int) throws {
        #expect(try scanning.decodePage(Breed.self, from: page(perPage: text)).perPage == value)
    }

    @Test(arguments: ["1.5", "1e-400", "1.00000000000000000000000000001", "9223372036854775808.0", "1e19"])
    func numbersThatAreNotWholeOrDoNotFitAreNotIntegers(_ text: String) {
        #expect(failure(page(perPage: text)) == "expected Int at 'per_page', found \(text)")
    }

    /// Found by the differential fuzzer (Tests/Fuzz/corpus/page-decoder/numeric-strings.json):
    /// a number sent as a string is read as `LenientInt` reads it, trimmed of any white space
    /// (a newline, a no-break space too), digits with an optional sign.
    @Test(arguments: [(#""\n2\u00a0""#, 2), (#"" +3 ""#, 3), (#""-4""#, -4)])
    func numericStringsAreReadAsLenientIntReadsThem(_ text: String, _ value: Int) throws {
        #expect(try scanning.decodePage(Breed.self, from: page(perPage: text)).perPage == value)
        #expect(try foundation.decodePage(Breed.self, from: page(perPage: text)).perPage == value)
    }

    @Test(arguments: ["5.0", "1e2", "", "5 5"])
    func aStringWithAFractionOrAnExponentIsNotAnInteger(_ text: String) {
        #expect(failure(page(perPage: "\"\(text)\"")) == "expected Int at 'per_page', found \"\(text)\"")
    }

    @Test(arguments: [
        (#"{"current_page":1,"data":[],"last_page":1,"per_page":10}"#, "missing key 'total' at the top level"),
        (#"{"current_page":1,"last_page":1,"per_page":10,"total":0}"#, "missing key 'data' at the top level"),
        (#"{"current_page":1,"data":[{"breed":"A"},{"country":"B"}],"last_page":1,"per_page":10,"total":2}"#,
         "missing key 'breed' at 'data[1]'"),
        (#"{"current_page":1,"data":[{"breed":42}],"last_page":1,"per_page":10,"total":1}"#,
         "expected String at 'data[0].breed', found a number"),
        (#"{"current_page":1,"data":[{"breed":null}],"last_page":1,"per_page":10,"total":1}"#,
         "expected String at 'data[0].breed', found null"),
        (#"{"current_page":1,"data":[{"breed":" \t"}],"last_page":1,"per_page":10,"total":1}"#,
         "breed name is empty at 'data[0].breed'"),
        (#"{"current_page":1,"data":[{"breed":"A","coat":["Short"]}],"last_page":1,"per_page":10,"total":1}"#,
         "expected String at 'data[0].coat', found an array"),
        (#"{"current_page":1,"data":{},"last_page":1,"per_page":10,"total":0}"#, "expected Array at 'data', found an object"),
        (#"{"current_page":1,"data":[],"last_page":1,"per_page":"ten","total":0}"#, #"expected Int at 'per_page', found "ten""#),
        (#"{"current_page":1,"data":[],"last_page":1,"per_page":2.5,"total":0}"#, "expected Int at 'per_page', found 2.5"),
        (#"{"current_page":1,"data":[],"last_page":1,"per_page":99999999999999999999,"total":0}"#,
         "expected Int at 'per_page', found 99999999999999999999"),
        ("[]", "expected Object at the top level, found an array"),
        ("<html><body>Whoops</body></html>", "the body is not valid JSON (32 bytes: expected a value at byte 0)"),
        ("", "the body is not valid JSON (0 bytes: the body ends where a value should be at byte 0)"),
        (#"{"current_page":1} x"#, "the body is not valid JSON (20 bytes: unexpected data after the JSON value at byte 19)"),
        (#"{"a":"\x"}"#, "the body is not valid JSON (10 bytes: an invalid escape in a string at byte 6)"),
        (#"{"data":[{"breed":"\ud83d"}]}"#, "the body is not valid JSON (29 bytes: a lone surrogate in a \\u escape at byte 25)"),
        (#"{"a":01}"#, "the body is not valid JSON (8 bytes: a number with a leading zero at byte 5)"),
        (#"{"a":tru}"#, "the body is not valid JSON (9 bytes: expected a value at byte 5)"),
        (#"{"a":1,}"#, "the body is not valid JSON (8 bytes: expected a key in quotes at byte 7)"),
        (#"{"a" 1}"#, "the body is not valid JSON (7 bytes: expected ':' after a key at byte 5)"),
        (#"{"a":[1 2]}"#, "the body is not valid JSON (11 bytes: expected ',' or ']' at byte 8)"),
        ("{\"a\":\"x\ny\"}", "the body is not valid JSON (11 bytes: a control character inside a string at byte 7)"),
    ] as [(String, String)])
    func badBodiesNameWhatIsWrong(_ body: String, _ message: String) {
        #expect(failure(Array(body.utf8)) == message)
    }

    @Test func invalidUTF8InANameIsRefused() throws {
        var bytes = Array(#"{"current_page":1,"data":[{"breed":"A?"}],"last_page":1,"per_page":1,"total":1}"#.utf8)
        bytes[try #require(bytes.firstIndex(of: UInt8(ascii: "?")))] = 0xFF
        #expect(failure(bytes) == "the body is not valid JSON (79 bytes: a string that is not valid UTF-8 at byte 35)")
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let body = #"{"links":"# + String(repeating: "[", count: 100_000)
        #expect(failure(Array(body.utf8)) == "the body is not valid JSON (100009 bytes: nesting deeper than 512 levels at byte 520)")
    }

    @Test func everyTruncationOfAPageIsASyntaxError() {
        let bytes = Array(Fixtures.breedsPerPageString.utf8)
        for count in 0..<bytes.count {
            let message = failure(Array(bytes[..<count])) ?? "decoded"
            #expect(message.hasPrefix("the body is not valid JSON (\(count) bytes: "), "cut at \(count): \(message)")
        }
    }

    /// Random byte changes never crash; where both decoders accept the result, they agree.
    @Test func mutatedPagesNeverCrashAndAgreeWithFoundation() throws {
        let original = Array(Fixtures.breedsPerPageString.utf8)
        var random = SplitMix64(seed: 2026)
        let alphabet = Array(#"{}[]":,\ u0123456789abcdefnrtl-+.eE"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF]
        var bothAccepted = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = alphabet.randomElement(using: &random) ?? 0
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: at)
                }
            }
            let fast = try? scanning.decodePage(Breed.self, from: bytes)
            let reference = try? foundation.decodePage(Breed.self, from: bytes)
            if let fast, let reference {
                bothAccepted += 1
                #expect(fast.items == reference.items, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(fast.total == reference.total && fast.perPage == reference.perPage)
            }
        }
        // Most changes land in the long `links` strings, which both accept.
        #expect(bothAccepted > 1000)
    }

    /// Keys are matched a word at a time: short and long keys, one the prefix of another, a
    /// key cut by the end of the body, and one byte wrong at each position of a long key.
    @Test func keysMatchWholeWithTheirQuoteOnly() {
        let keys = KeySet(["coat", "coats", "current_page", "breed"])
        func match(_ text: String, expected: Int = 0) -> Int? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { keys.match($0, at: 0, expected: expected) }.map { $0.index }
        }
        #expect(match(#"coat":"#) == 0)
        #expect(match(#"coats":"#) == 1)
        #expect(match(#"coats":"#, expected: 0) == 1)
        #expect(match(#"coat""#) == 0)  // the quote is the body's last byte
        #expect(match("coat") == nil)  // cut before the quote
        #expect(match(#"coa""#) == nil)
        #expect(match(#"current_page":1"#) == 2)
        #expect(match(#"current_page""#, expected: 3) == 2)
        #expect(match(#"current_pages":1"#) == nil)
        for position in 0..<12 {
            var bytes = Array(#"current_page":1"#.utf8)
            bytes[position] ^= 0x01
            #expect(bytes.withUnsafeBufferPointer { keys.match($0, at: 0) } == nil, "byte \(position) changed")
        }
        let offset = Array(#"{"breed":"x"}"#.utf8).withUnsafeBufferPointer { keys.match($0, at: 2, expected: 3) }
        #expect(offset?.index == 3 && offset?.end == 8)
        #expect(keys.index(of: Array("current_page".utf8)) == 2 && keys.index(of: Array("coa".utf8)) == -1)
        #expect(Array(#"a":1"#.utf8).withUnsafeBufferPointer { KeySet.none.match($0, at: 0) } == nil)
    }

    /// An empty page whose `per_page` is `text`, as written.
    private func page(perPage text: String) -> [UInt8] {
        Array(#"{"current_page":1,"data":[],"last_page":1,"per_page":\#(text),"total":0}"#.utf8)
    }

    private func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try scanning.decodePage(Breed.self, from: bytes)
            return nil
        } catch {
            return error.description
        }
    }
}
