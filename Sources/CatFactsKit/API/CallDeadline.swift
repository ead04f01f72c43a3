/// When the whole call must be over (``ClientOptions/deadline``): bound once by the client's
/// entry point, so everything the call does — attempts, backoff, Retry-After waits, the
/// pages of a walk — shares it; read wherever the call waits.
enum CallDeadline {
    @TaskLocal static var current: ContinuousClock.Instant?
}

extension CatFactsClient {
    /// Runs `body` under the call's deadline: the one already bound (a call within a call,
    /// such as the pages of a walk), else now + ``ClientOptions/deadline`` when one is set.
    func withDeadline<T>(_ body: () async throws(CatFactsError) -> T) async throws(CatFactsError) -> T {
        guard CallDeadline.current == nil, let limit = options.deadline else { return try await body() }
        let result: Result<T, CatFactsError> = await CallDeadline.$current.withValue(ContinuousClock.now + limit) {
            do throws(CatFactsError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
