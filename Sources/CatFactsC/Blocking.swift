import CatFactsKit

/// A blocking C entry point's wait for the async core (see `Blocking.run`): its value or error.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws(CatFactsError) -> T) -> Result<T, CatFactsError> {
    Blocking.run { () async -> Result<T, CatFactsError> in
        do throws(CatFactsError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
