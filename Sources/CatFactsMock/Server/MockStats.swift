/// `GET /_mock/stats`: the mock's own counters, for tests that must see what a client did
/// (how many requests it had under way at once) without timing it. Not an API route: it is
/// not counted, delayed, held or faulted, and the real service has no such path.
///
/// `{"requests":R,"in_flight":I,"peak_in_flight":P,"hold":"off|holding|released|timed out",
/// "rendered_pages":N,"rendered_bytes":B}`: requests served (this one not included), those
/// in flight now and the most at once, the ``MockConfiguration/hold`` gate, and the pages
/// the render cache keeps.
enum MockStats {
    static let path = "/_mock/stats"

    static func reply(traffic: MockTraffic, gauge: InFlightGauge, pages: RenderedPages) -> MockReply {
        let reading = gauge.reading()
        let kept = pages.count
        var json = PHPJSONWriter()
        json.raw("{\"requests\":")
        json.int(traffic.count(path: nil))
        json.raw(",\"in_flight\":")
        json.int(reading.inFlight)
        json.raw(",\"peak_in_flight\":")
        json.int(reading.peak)
        json.raw(",\"hold\":")
        json.string(reading.hold.rawValue)
        json.raw(",\"rendered_pages\":")
        json.int(kept.pages)
        json.raw(",\"rendered_bytes\":")
        json.int(kept.bytes)
        json.raw("}")
        return MockReply(status: .ok, body: json.bytes)
    }
}
