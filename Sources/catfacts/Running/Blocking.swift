import CatFactsKit

extension Blocking {
    /// Waits on the main thread for async work that is not a command (starting and
    /// stopping the in-process mock): its value, or its error thrown here.
    static func wait<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        try run { () async -> Result<Value, any Error> in
            do {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }.get()
    }
}
