import CatFactsKit

/// The shell's transport: another transport's requests, each reported to a
/// ``RequestObserver`` as it goes out and as it ends, so the spinner can name it and the
/// shell can say when the server cannot be reached.
struct ObservedTransport: HTTPTransport {
    let base: any HTTPTransport
    let observer: RequestObserver

    func send(_ request: HTTPRequest, limits: TransportLimits) async throws(CatFactsError) -> HTTPResponse {
        let id = observer.began(request)
        do {
            let response = try await base.send(request, limits: limits)
            observer.ended(id, error: nil)
            return response
        } catch {
            observer.ended(id, error: error)
            throw error
        }
    }
}
