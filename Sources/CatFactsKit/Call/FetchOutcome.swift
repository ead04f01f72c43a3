/// What one GET brought back: a new body, or "not modified" for a conditional request.
enum FetchOutcome<Value> {
    /// A 2xx response, decoded, with the response to store.
    case fresh(Value, HTTPResponse)
    /// A 304 to a request carrying the cached response's validators.
    case notModified
}
