import CatFactsFoundation
@testable import CatFactsKit
import Foundation
import Testing

@Suite("WebAddress: the parts of a URL the library reads, as URLComponents reads them")
struct WebAddressTests {
    static let valid = [
        "https://catfact.ninja", "http://127.0.0.1:8106", "http://127.0.0.1:8106/v1/breeds?page=2&limit=5",
        "HTTP://reader:s3cret@API.Example.ORG:8080/cat/facts/", "http://[::1]:9000/x", "http://[fe80::1%25eth0]/",
        "https://h/a%20b?q=%C3%A9#frag", "http://h:/path", "https://catfact.ninja/", "mailto:someone@example.org",
        "http://", "http://h?", "http://h#", "socks5h://proxy:1080",
    ]

    @Test(arguments: valid)
    func partsAreFoundationsParts(text: String) throws {
        let address = try #require(WebAddress(string: text))
        let components = try #require(URLComponents(string: text))
        #expect(address.absoluteString == text)
        #expect(address.scheme == components.scheme)
        // Without the brackets of an IPv6 host, as URL.host gives it; escapes kept.
        let host = components.percentEncodedHost.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 }
        #expect(address.host.flatMap { $0.isEmpty ? nil : $0 } == host.flatMap { $0.isEmpty ? nil : $0 })
        #expect(address.port == components.port)
        #expect(address.path == components.percentEncodedPath)
        #expect(address.query == components.percentEncodedQuery)
        #expect(address.fragment == components.percentEncodedFragment)
    }

    static let invalid = [
        "", "catfact.ninja", "://h", "1http://h", "http://h h", "http://h/\u{7}", "http://h/é", "http://h/%zz", "http://h/%4",
        "http://h:port", "http://h:65536", "http://h:123456", "http://[::1", "http://h]/", "http://h/[x]", "http://[::1]x/",
        "http://h\"/", "http://h/<>", "http://h/a\\b", "ht tp://h", "http://h/#a#b", "http://#x#",
    ]

    @Test(arguments: invalid)
    func notAURLIsRefused(text: String) {
        #expect(WebAddress(string: text) == nil)
    }

    @Test func aBaseURLTakesAnEndpointAndAnEscapedQuery() throws {
        let base = try #require(WebAddress(string: "http://h:1/v1"))
        let url = base.appending(path: "/breeds", query: [QueryItem(name: "page", value: "2"), QueryItem(name: "q", value: "a&b=c+d é")])
        #expect(url.absoluteString == "http://h:1/v1/breeds?page=2&q=a%26b%3Dc%2Bd%20%C3%A9")
        #expect(url.path == "/v1/breeds" && url.query == "page=2&q=a%26b%3Dc%2Bd%20%C3%A9")
        #expect(try #require(WebAddress(string: "https://catfact.ninja/")).appending(path: "/fact").absoluteString == "https://catfact.ninja/fact")
        // Only the path's trailing slashes go, never the authority's (found by fuzz-web-address).
        #expect(try #require(WebAddress(string: "http://h/v1//")).appending(path: "breeds").absoluteString == "http://h/v1/breeds")
        let empty = try #require(WebAddress(string: "http://")).appending(path: "/breeds")
        #expect(empty.absoluteString == "http:///breeds" && empty.host == "" && empty.path == "/breeds")
        #expect(try #require(WebAddress(string: "mailto:x/")).appending(path: "/y").absoluteString == "mailto:x/y")
        let items = try #require(URLComponents(string: url.absoluteString)?.queryItems)
        #expect(items == [URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "q", value: "a&b=c+d é")])
    }

    @Test func foundationsURLAndBack() throws {
        let address = try #require(WebAddress(string: "http://[::1]:9000/x?y=1"))
        let url = try #require(URL(address))
        #expect(url.port == 9000 && url.path == "/x" && url.query == "y=1")
        #expect(WebAddress(url) == address)
    }
}
