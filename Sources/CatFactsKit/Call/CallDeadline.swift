/// When the whole call must be over (``ClientOptions/deadline``): bound once by the client's
/// entry point, so everything the call does — attempts, backoff, Retry-After waits, the
/// pages of a walk — shares it; read wherever the call waits.
enum CallDeadline {
    @TaskLocal static var current: ContinuousClock.Instant?

    /// Runs `body` under a deadline: the one already bound (a call within a call, such as the
    /// pages of a walk), else now + `limit` when there is one.
    static func bound<T>(_ limit: Duration?, _ body: () async throws(CatFactsError) -> T) async throws(CatFactsError) -> T {
        guard current == nil, let limit else { return try await body() }
        let result: Result<T, CatFactsError> = await $current.withValue(ContinuousClock.now + limit) {
            do throws(CatFactsError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
