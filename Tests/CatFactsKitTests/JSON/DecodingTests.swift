@testable import CatFactsKit
import Foundation
import Testing

@Suite("Decoding what the real service sends")
struct DecodingTests {
    private func client(_ body: String, status: Int = 200) throws -> (CatFactsClient, ScriptedTransport) {
        let transport = ScriptedTransport(status: status, body: body)
        let client = try CatFactsClient(options: ClientOptions(baseURL: "https://catfact.ninja"), transport: transport)
        return (client, transport)
    }

    @Test func perPageAsAStringIsANumber() async throws {
        let (client, _) = try client(Fixtures.breedsPerPageString)
        let page = try await client.breeds(page: 1, limit: 2)
        #expect(page.perPage == 2)
        #expect(page.number == 1)
        #expect(page.lastPage == 49)
        #expect(page.total == 98)
        #expect(page.source == .network)
    }

    @Test func perPageAsANumber() async throws {
        let (client, _) = try client(Fixtures.breedsPerPageNumber)
        let page = try await client.breeds(page: 4)
        #expect(page.perPage == 25)
        #expect(page.firstIndex == 75)
        #expect(page.items == [Breed(breed: "Chartreux", country: "France", origin: "Natural", coat: "Short", pattern: "Solid")])
    }

    @Test func escapedSlashesAreUnescaped() async throws {
        let (client, _) = try client(Fixtures.breedsPerPageString)
        let page = try await client.breeds(page: 1, limit: 2)
        #expect(page.items[0].origin == "Natural/Standard")
    }

    @Test func emptyFieldsBecomeAbsent() async throws {
        let (client, _) = try client(Fixtures.breedsPerPageString)
        let aegean = try await client.breeds(page: 1, limit: 2).items[1]
        #expect(aegean == Breed(breed: "Aegean", country: "Greece", origin: "Natural/Standard"))
        #expect(aegean.coat == nil)
        #expect(aegean.pattern == nil)
        let json = JSONOutput.string(aegean)
        #expect(json == #"{"breed":"Aegean","country":"Greece","origin":"Natural/Standard"}"#)
    }

    @Test func aPagePastTheEndIsEmptyNotAnError() async throws {
        let (client, _) = try client(Fixtures.breedsPastTheEnd)
        let page = try await client.breeds(page: 60)
        #expect(page.items.isEmpty)
        #expect(page.number == 60)
        #expect(page.lastPage == 4)
        #expect(page.total == 98)
    }

    @Test func unicodeEscapesAndRawUnicodeDecode() async throws {
        let (client, _) = try client(Fixtures.factsWithUnicode)
        let page = try await client.facts(page: 1, limit: 2)
        #expect(page.items[0].text == "A cat\u{2019}s \u{201C}knead\u{201D} comes from kittenhood \u{2013} it\u{2019}s comfort.")
        #expect(page.items[0].length == 52)
        #expect(page.items[1].text == "Cats see at 1/6 the light level we need; body temp 38.6 °C.")
        #expect(page.total == 332)
    }

    @Test func aRandomFact() async throws {
        let (client, _) = try client(Fixtures.randomFact)
        let fact = try await client.randomFact(maxLength: 40)
        #expect(fact == Fact("Cats have 32 muscles in each ear.", length: 33))
    }

    @Test func aWrongTypeIsADecodeErrorNamingTheKeyPath() async throws {
        let body = Fixtures.breedsPerPageString.replacingOccurrences(of: #""breed":"Aegean""#, with: #""breed":42"#)
        let (client, _) = try client(body)
        let error = await caught { try await client.breeds(page: 1, limit: 2) }
        guard case .decode(let what, let url)? = error else { Issue.record("expected a decode error, got \(String(describing: error))"); return }
        #expect(what == "expected String at 'data[1].breed', found a number")
        #expect(url == "https://catfact.ninja/breeds?page=1&limit=2")
    }

    @Test func aMissingKeyIsADecodeErrorNamingIt() async throws {
        let (client, _) = try client(#"{"current_page":1,"data":[],"last_page":1,"per_page":10}"#)
        let error = await caught { try await client.breeds() }
        #expect(error?.status == .decode)
        #expect(error?.description.contains("missing key 'total'") == true)
    }

    @Test func notJSONIsADecodeErrorSayingSo() async throws {
        let (client, _) = try client("<html><body>Whoops</body></html>")
        let error = await caught { try await client.breeds() }
        #expect(error?.status == .decode)
        #expect(error?.description.contains("is not valid JSON (32 bytes") == true)
    }

    @Test func moreItemsThanPerPageIsRejected() async throws {
        let body = Fixtures.breedsPerPageString.replacingOccurrences(of: #""per_page":"2""#, with: #""per_page":"1""#)
        let (client, _) = try client(body)
        let error = await caught { try await client.breeds(page: 1, limit: 2) }
        #expect(error == .decode("'data' holds 2 items, more than 'per_page' (1)", url: "https://catfact.ninja/breeds?page=1&limit=2"))
    }

    @Test(arguments: [
        ("Short", "Short"), ("  Short \n", "Short"), ("\u{00A0}Semi-long\t", "Semi-long"), ("Semi long", "Semi long"),
        ("", nil), ("   ", nil), ("\n\t", nil),
        ("\u{00A0}Short", "Short"), ("\u{3000}Rex", "Rex"), ("Ébène", "Ébène"),
    ] as [(String, String?)])
    func fieldsAreTrimmedAndBlankOnesAbsent(_ raw: String, _ expected: String?) {
        #expect(Breed(breed: "X", coat: raw).coat == expected)
    }

    @Test func anEmptyBreedNameIsRejected() async throws {
        let body = Fixtures.breedsPerPageString.replacingOccurrences(of: #""breed":"Aegean""#, with: #""breed":"  ""#)
        let (client, _) = try client(body)
        let error = await caught { try await client.breeds(page: 1, limit: 2) }
        #expect(error?.description.contains("breed name is empty at 'data[1].breed'") == true)
    }
}
