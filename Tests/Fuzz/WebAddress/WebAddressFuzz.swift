import CatFactsKit
import FoundationEssentials

// libFuzzer target: WebAddress, the library's URL parser (a client's base URL, a proxy's, a
// collector's), differential against Foundation's URLComponents.
//
// For every input (as UTF-8 text, invalid bytes replaced) WebAddress accepts or refuses
// without a trap. An accepted URL keeps its text, parses again to itself, has a port up to
// 65535 and parts that split the text where RFC 3986 splits it; URLComponents accepts it too
// and reads the same scheme, host, port, path, query and fragment (but for an IPv6 host's
// text, below); and, with no query nor fragment, the URL with a path and a query appended (as
// requests are made) is a URL that ends with them. Any other outcome, a trap or a leak stops the run.
//
// Run: `make fuzz` (or `make fuzz-short`); seeds in Tests/Fuzz/corpus/web-address.

/// One input, as libFuzzer hands it; 0 always (a failed check stops the run).
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: data.map { UnsafeBufferPointer(start: $0, count: size) } ?? UnsafeBufferPointer(start: nil, count: 0),
                      as: UTF8.self)
    guard let address = WebAddress(string: text) else { return 0 }
    check(address, text)
    return 0
}

private func check(_ address: WebAddress, _ text: String) {
    if address.absoluteString != text { fail("the text became \(address.absoluteString)", text) }
    if WebAddress(string: text) != address { fail("parsed twice, two answers", text) }
    if let port = address.port, !(0...65_535).contains(port) { fail("port \(port)", text) }
    if address.path.contains(where: { $0 == "?" || $0 == "#" }) { fail("path \(address.path)", text) }
    if address.query?.contains("#") == true { fail("query \(address.query ?? "")", text) }
    if let host = address.host, host.contains(where: { "/?#@[]".contains($0) }) { fail("host \(host)", text) }
    let tail = address.path + (address.query.map { "?" + $0 } ?? "") + (address.fragment.map { "#" + $0 } ?? "")
    if !text.hasSuffix(tail) || !text.hasPrefix(address.scheme + ":") { fail("parts \(address.scheme) … \(tail)", text) }

    // An IPv6 host's text (between the brackets) is libcurl's to check, as the type says:
    // WebAddress only finds the brackets, where URLComponents checks the address and escapes
    // a zone's `%` (`[fe80::1%65eth0]`, which RFC 6874 would write `%25`). The rest of such a
    // URL is checked above.
    if text.contains("[") { return appendingKeepsTheURL(address, text) }
    guard let components = URLComponents(string: text) else { fail("URLComponents refuses it", text) }
    let host = components.percentEncodedHost.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 }
    if address.scheme != components.scheme { fail("scheme \(address.scheme), URLComponents \(components.scheme ?? "nil")", text) }
    if address.host.flatMap({ $0.isEmpty ? nil : $0 }) != host.flatMap({ $0.isEmpty ? nil : $0 }) {
        fail("host \(address.host ?? "nil"), URLComponents \(host ?? "nil")", text)
    }
    if address.port != components.port { fail("port \(address.port.map(String.init) ?? "nil"), URLComponents \(components.port.map(String.init) ?? "nil")", text) }
    if address.path != components.percentEncodedPath { fail("path \(address.path), URLComponents \(components.percentEncodedPath)", text) }
    if address.query != components.percentEncodedQuery { fail("query \(address.query ?? "nil"), URLComponents \(components.percentEncodedQuery ?? "nil")", text) }
    if address.fragment != components.percentEncodedFragment {
        fail("fragment \(address.fragment ?? "nil"), URLComponents \(components.percentEncodedFragment ?? "nil")", text)
    }
    appendingKeepsTheURL(address, text)
}

private func appendingKeepsTheURL(_ address: WebAddress, _ text: String) {
    if address.query == nil, address.fragment == nil, address.host != nil {
        let value = String(text.unicodeScalars.reversed().map(Character.init))
        let items = [QueryItem(name: "q", value: value), QueryItem(name: "page", value: "2")]
        let appended = address.appending(path: "/breeds", query: items)
        let expected = "/breeds?" + QueryItem.encoded(items)
        if !appended.absoluteString.hasSuffix(expected) || appended.query == nil || appended.host != address.host {
            fail("appended: \(appended.absoluteString)", text)
        }
    }
}

private func fail(_ what: String, _ text: String) -> Never {
    fatalError("fuzz-web-address: \(what) for \(String(reflecting: text))")
}
