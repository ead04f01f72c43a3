/// A way the mock can fail a request, as the real service or the network between sometimes does.
///
/// The raw values are the names `catfacts-mock --faults` takes.
public enum MockFault: String, CaseIterable, Sendable {
    /// Status 500 with Laravel's `{"message":"Server Error"}`.
    case serverError = "500"
    /// Status 429 with `Retry-After` and Laravel's `{"message":"Too Many Attempts."}`.
    case rateLimited = "429"
    /// Status 503 (maintenance) with `Retry-After` and Laravel's `{"message":"Service Unavailable"}`.
    case unavailable = "503"
    /// The connection drops before the response is complete: the client sees a network error.
    case reset
    /// Status 200 whose body is an HTML error page, not JSON.
    case malformed
    /// Status 200 whose JSON body ends cleanly half-way through the document.
    case truncated
    /// The correct response, its body sent in about ten chunks spread over
    /// ``MockConfiguration/slowBody``.
    case slow
}
