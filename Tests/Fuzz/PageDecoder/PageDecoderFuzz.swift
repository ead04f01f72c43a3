import CatFactsFoundation
import CatFactsKit
import Foundation

// libFuzzer target: the page decoder, differential. Every input is decoded by the client's
// decoder (ScanningPageDecoder, a scanner of the project's own) and by Foundation's
// JSONDecoder through the same types' Decodable conformances (FoundationPageDecoder), as a
// page of breeds, a page of facts, one fact (/fact) and one breed. For every input both
// accept or both refuse, and when both accept the values are equal; anything else stops the
// run with both answers (libFuzzer saves the input as crash-<sha1>).
//
// Deliberate differences, the only ones allowed (`Allowed` below checks each precisely):
// 1. Encoding. JSONDecoder also reads UTF-16 and UTF-32 and skips a UTF-8 byte order mark;
//    the scanner reads UTF-8 only (RFC 8259 section 8.1: JSON exchanged between systems is
//    UTF-8 without a BOM, and the API sends that). So Foundation may accept an input that
//    starts with a byte order mark or holds a NUL byte in its first four bytes.
// 2. Skipped strings. The scanner checks the UTF-8 and the `\u` digits of the strings it
//    decodes, not of those it passes over (link fields, unknown keys: see JSONScanner); a
//    body whose only flaw is there is decoded. So the scanner may accept an input that holds
//    invalid UTF-8, or a `\u` escape without four hex digits or with a lone surrogate.
// 3. Values Foundation does not decode. JSONDecoder does not look inside the strings and
//    numbers it passes over (link fields, unknown keys): a raw control character in a string
//    (RFC 8259 section 7 wants it escaped), an escape JSON does not have (`\x`), a number
//    like `1e0e+3` pass there; the scanner refuses them anywhere. So Foundation may accept an
//    input that is not JSON, as JSONSerialization (which reads every value) judges it.
// 4. Numbers past a Double's precision. The scanner reads a number with a fraction or an
//    exponent exactly: an integer when its value is whole and fits. JSONDecoder goes through
//    a Double for some (to it 1.00000000000000000000000000001 and 1e-400 are whole) and
//    refuses others (9223372036854775807.0). So either may accept alone a number with a
//    fraction or an exponent and more than 15 significant digits or an exponent past 300.
// 5. Trailing commas. JSONDecoder (and JSONSerialization) read `{"breed":"A",}` and `[1,]`;
//    RFC 8259 does not allow them and the scanner refuses them. So Foundation may accept an
//    input with a comma just before a `}` or a `]`.
//
// Run: `make fuzz` (or `make fuzz-short`); seeds in Tests/Fuzz/corpus/page-decoder.

/// One input, as libFuzzer hands it; 0 always (a failed check stops the run).
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    comparePages(of: Breed.self, body)
    comparePages(of: Fact.self, body)
    compareObjects(of: Fact.self, body)
    compareObjects(of: Breed.self, body)
    return 0
}

private let scanning = ScanningPageDecoder()
private let foundation = FoundationPageDecoder()

private func comparePages<Item: Decodable & Sendable & Equatable>(of type: Item.Type, _ body: [UInt8]) {
    let fast = Result { () throws(DecodeFailure) in try scanning.decodePage(type, from: body) }
    let reference = Result { () throws(DecodeFailure) in try foundation.decodePage(type, from: body) }
    switch (fast, reference) {
    case (.success(let a), .success(let b)):
        let numbers = [a.currentPage, a.lastPage, a.perPage, a.total]
        let expected = [b.currentPage, b.lastPage, b.perPage, b.total]
        if numbers != expected || a.items != b.items {
            fail("page of \(type): the decoders disagree", body,
                 "scanner:    \(numbers) \(a.items)\nFoundation: \(expected) \(b.items)")
        }
    case (.failure, .failure):
        break
    case (.failure(let error), .success):
        if !Allowed.foundationOnly(body) { fail("page of \(type): only Foundation accepts", body, "scanner: \(error)") }
    case (.success, .failure(let error)):
        if !Allowed.scannerOnly(body) { fail("page of \(type): only the scanner accepts", body, "Foundation: \(error)") }
    }
}

private func compareObjects<Value: Decodable & Equatable>(of type: Value.Type, _ body: [UInt8]) {
    let fast = Result { () throws(DecodeFailure) in try scanning.decodeObject(type, from: body) }
    let reference = Result { () throws(DecodeFailure) in try foundation.decodeObject(type, from: body) }
    switch (fast, reference) {
    case (.success(let a), .success(let b)):
        if a != b { fail("one \(type): the decoders disagree", body, "scanner:    \(a)\nFoundation: \(b)") }
    case (.failure, .failure):
        break
    case (.failure(let error), .success):
        if !Allowed.foundationOnly(body) { fail("one \(type): only Foundation accepts", body, "scanner: \(error)") }
    case (.success, .failure(let error)):
        if !Allowed.scannerOnly(body) { fail("one \(type): only the scanner accepts", body, "Foundation: \(error)") }
    }
}

/// Stops the run: libFuzzer reports the trap and keeps the input.
private func fail(_ what: String, _ body: [UInt8], _ detail: String) -> Never {
    fatalError("\(what)\ninput (\(body.count) bytes): \(String(decoding: body, as: UTF8.self).debugDescription)\n\(detail)")
}
