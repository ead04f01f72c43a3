/// What a response's status means for the call: nothing for a 2xx, else the error it
/// stands for, with the server's own words when it sent any.
enum ResponseCheck {
    /// The error a non-2xx response stands for; `nil` for a 2xx.
    static func failure(for response: HTTPResponse, url: String) -> CatFactsError? {
        switch response.status {
        case 200..<300:
            return nil
        case 429:
            return .rateLimited(retryAfter: RetryAfter.seconds(response.header("Retry-After")), url: url)
        default:
            return .http(status: response.status, message: serverMessage(response), url: url,
                         retryAfter: RetryAfter.seconds(response.header("Retry-After")))
        }
    }

    /// Laravel's `{"message": "..."}`, else a short plain-text body, else the status's reason phrase.
    private static func serverMessage(_ response: HTTPResponse) -> String {
        if let message = ServerMessage.laravel(in: response.body) { return message }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self).trimmed()
        if !text.isEmpty, !text.contains("<"), response.body.count <= 200 { return text }
        return response.reasonPhrase
    }
}
