import CatFactsC
import CatFactsKit

// libFuzzer target: the options JSON of cf_client_open and cf_list_open, read as the C
// functions read it (the input up to its first NUL, as a C string).
//
// For every input, each parser either accepts, with every integer option inside the range
// the header gives it, or refuses with CF_ERR_ARGUMENT and a message; accepted list options
// then go through the check cf_list_open makes (PagingOptions.validate, whose arithmetic
// must not overflow on any accepted value). Any other outcome, a trap or a leak stops the run.
//
// Run: `make fuzz` (or `make fuzz-short`); seeds in Tests/Fuzz/corpus/options.

/// One input, as libFuzzer hands it; 0 always (a failed check stops the run).
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var text = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    text.append(0)
    text.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
            let json = chars.baseAddress
            checkClientOptions(Result { () throws(CatFactsError) in try ClientOptions(baseURL: nil, json: json) }, text)
            checkListOptions(Result { () throws(CatFactsError) in try PagingOptions.parse(json) }, text)
        }
    }
    return 0
}

/// The header's ranges (include/catfacts.h, cf_client_open), in the units ClientOptions keeps.
private func checkClientOptions(_ outcome: Result<ClientOptions, CatFactsError>, _ text: [UInt8]) {
    guard case .success(let options) = outcome else { return expectArgumentError(outcome, "client options", text) }
    let day = Duration.milliseconds(86_400_000)
    expect(options.limits.totalTimeout, in: .milliseconds(1)...day, "timeout_ms", text)
    expect(options.limits.connectTimeout, in: .milliseconds(1)...day, "connect_timeout_ms", text)
    if let deadline = options.deadline { expect(deadline, in: .milliseconds(1)...day, "deadline_ms", text) }
    expect(options.retry.retries, in: 0...100, "retries", text)
    expect(options.limits.maxBodyBytes, in: 1...(1 << 31), "max_body_bytes", text)
    if let bytes = options.cacheMaxBytes { expect(bytes, in: 0...(1 << 40), "cache_max_bytes", text) }
    expect(options.cacheTTL, in: .zero...(day * 365), "cache_ttl_ms", text)
}

/// The header's ranges (include/catfacts.h, cf_list_open).
private func checkListOptions(_ outcome: Result<(PagingOptions, maxLength: Int), CatFactsError>, _ text: [UInt8]) {
    guard case .success(let (options, maxLength)) = outcome else {
        return expectArgumentError(outcome.map { $0.0 }, "list options", text)
    }
    expect(options.pageSize, in: 1...100_000, "page_size", text)
    expect(options.prefetchDistance, in: 0...1_000_000, "prefetch_distance", text)
    expect(options.maxCachedItems, in: 1...10_000_000, "max_cached_items", text)
    expect(maxLength, in: 0...1_000_000, "max_length", text)
    do {
        try options.validate()
    } catch {
        if case .argument(let message) = error, !message.isEmpty { return }
        fail("PagingOptions.validate refused with \(error)", text)
    }
}

/// A refusal must be CF_ERR_ARGUMENT with a message.
private func expectArgumentError<T>(_ outcome: Result<T, CatFactsError>, _ what: String, _ text: [UInt8]) {
    guard case .failure(let error) = outcome else { return }
    guard case .argument(let message) = error, !message.isEmpty else { fail("\(what) refused with \(error)", text) }
}

private func expect<T: Comparable>(_ value: T, in range: ClosedRange<T>, _ key: String, _ text: [UInt8]) {
    if !range.contains(value) { fail("'\(key)' accepted as \(value), outside \(range)", text) }
}

/// Stops the run: libFuzzer reports the trap and keeps the input.
private func fail(_ what: String, _ text: [UInt8]) -> Never {
    fatalError("\(what)\ninput: \(String(decoding: text.dropLast(), as: UTF8.self).debugDescription)")
}
