import CatFactsKit
import Testing
@testable import CatFactsMock

@Suite("PHP-style JSON and Laravel's page window")
struct WriterTests {
    private func encoded(_ text: String) -> String {
        var json = PHPJSONWriter()
        json.string(text)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test("strings are escaped as json_encode does")
    func escapes() {
        #expect(encoded("plain") == #""plain""#)
        #expect(encoded("a/b") == #""a\/b""#)
        #expect(encoded("say \"hi\" \\ now") == #""say \"hi\" \\ now""#)
        #expect(encoded("tab\tline\nret\rbs\u{8}ff\u{C}") == #""tab\tline\nret\rbs\bff\f""#)
        #expect(encoded("\u{1}\u{1F}\u{7F}") == "\"\\u0001\\u001f\u{7F}\"")
        #expect(encoded("café ’ ñ") == #""caf\u00e9 \u2019 \u00f1""#)
        #expect(encoded("🐈 cat") == #""\ud83d\udc08 cat""#)
        #expect(encoded("") == #""""#)
        #expect(encoded("e\u{301}") == #""e\u0301""#)
    }

    @Test("numbers, null and booleans")
    func scalars() {
        var json = PHPJSONWriter()
        json.raw("[")
        json.int(-12)
        json.raw(",")
        json.int(nil as Int?)
        json.raw(",")
        json.bool(true)
        json.raw(",")
        json.string(nil as String?)
        json.raw("]")
        #expect(String(decoding: json.bytes, as: UTF8.self) == "[-12,null,true,null]")
    }

    @Test("ETags are stable quoted FNV-1a hashes")
    func etags() {
        #expect(FNV1a.hash64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.etag(Array("a".utf8)) == "\"af63dc4c8601ec8c\"")
        #expect(FNV1a.etag(Array("hello".utf8)) != FNV1a.etag(Array("hellp".utf8)))
    }

    private func labels(_ current: Int, _ last: Int) -> [String] {
        LaravelLink.window(currentPage: current, lastPage: last).map {
            switch $0 {
            case .page(let page): String(page)
            case .gap: "..."
            }
        }
    }

    @Test("the window shows every page below 14 pages, then slides")
    func window() {
        #expect(labels(1, 1) == ["1"])
        #expect(labels(2, 4) == ["1", "2", "3", "4"])
        #expect(labels(5, 13) == (1...13).map(String.init))
        #expect(labels(1, 34) == (1...10).map(String.init) + ["...", "33", "34"])
        #expect(labels(7, 34) == (1...10).map(String.init) + ["...", "33", "34"])
        #expect(labels(8, 34) == ["1", "2", "...", "5", "6", "7", "8", "9", "10", "11", "...", "33", "34"])
        #expect(labels(20, 34) == ["1", "2", "...", "17", "18", "19", "20", "21", "22", "23", "...", "33", "34"])
        #expect(labels(28, 34) == ["1", "2", "..."] + (25...34).map(String.init))
        #expect(labels(99, 34) == ["1", "2", "..."] + (25...34).map(String.init))
        #expect(labels(500_000, 1_000_000).count == 13)
    }

    @Test("paginator arithmetic")
    func paginator() {
        let empty = LaravelPaginator(total: 0, perPage: 25, currentPage: 1)
        #expect(empty.lastPage == 1)
        #expect(empty.from == nil && empty.to == nil && empty.nextPage == nil)
        let page = LaravelPaginator(total: 98, perPage: 25, currentPage: 4)
        #expect(page.lastPage == 4)
        #expect(page.itemRange == 75..<98)
        #expect(page.from == 76 && page.to == 98)
        let far = LaravelPaginator(total: .max, perPage: 1000, currentPage: .max)
        #expect(far.itemRange.isEmpty)
    }
}
