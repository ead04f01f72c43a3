import Foundation
import Testing
@testable import CatFactsMock

@Suite("Errors, as Laravel answers them")
struct ErrorTests {
    @Test("page=abc is a 422 with Laravel's validation JSON")
    func nonNumericPage() async throws {
        try await MockHTTP.withMock { server in
            let (body, response) = try await MockHTTP.request(server, "/breeds?page=abc")
            #expect(response.statusCode == 422)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(String(decoding: body, as: UTF8.self)
                == #"{"message":"The page must be an integer.","errors":{"page":["The page must be an integer."]}}"#)
        }
    }

    @Test("bad limit and max_length are 422s; several errors are summed up")
    func otherValidation() async throws {
        try await MockHTTP.withMock { server in
            let (zero, zeroResponse) = try await MockHTTP.request(server, "/facts?limit=0")
            #expect(zeroResponse.statusCode == 422)
            #expect(String(decoding: zero, as: UTF8.self)
                == #"{"message":"The limit must be at least 1.","errors":{"limit":["The limit must be at least 1."]}}"#)
            let (_, maxLength) = try await MockHTTP.request(server, "/fact?max_length=long")
            #expect(maxLength.statusCode == 422)
            let (both, _, _) = try await MockHTTP.object(server, "/facts?page=x&max_length=y")
            #expect(both.string("message") == "The page must be an integer. (and 1 more error)")
            #expect((both["errors"] as? [String: Any])?.keys.sorted() == ["max_length", "page"])
        }
    }

    @Test("an unknown path is a 404 JSON")
    func unknownPath() async throws {
        try await MockHTTP.withMock { server in
            let (body, response) = try await MockHTTP.request(server, "/dogs")
            #expect(response.statusCode == 404)
            #expect(String(decoding: body, as: UTF8.self) == #"{"message":"Not Found"}"#)
        }
    }

    @Test("a method other than GET is a 405 JSON")
    func wrongMethod() async throws {
        try await MockHTTP.withMock { server in
            let (body, response) = try await MockHTTP.request(server, "/breeds", method: "POST")
            #expect(response.statusCode == 405)
            #expect(response.value(forHTTPHeaderField: "Allow") == "GET, HEAD")
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(json.string("message")?.hasPrefix("The POST method is not supported") == true)
        }
    }

    @Test("integers are read as Laravel's integer rule reads them")
    func laravelIntegers() {
        #expect(LaravelInteger.parse("42") == 42)
        #expect(LaravelInteger.parse(" -7 ") == -7)
        #expect(LaravelInteger.parse("+3") == 3)
        #expect(LaravelInteger.parse("0") == 0)
        for bad in ["", "abc", "1.5", "05", "1e3", "99999999999999999999", "-", "0x10"] {
            #expect(LaravelInteger.parse(Substring(bad)) == nil, "\(bad)")
        }
    }
}
