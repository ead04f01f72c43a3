#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The message of an error body in Laravel's shape, `{"message": "..."}`.
enum ServerMessage {
    /// The body's non-empty `message`; `nil` when the body is not such an object.
    static func laravel(in body: [UInt8]) -> String? {
        struct Message: Decodable { let message: String }
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(body)).message, !message.isEmpty else {
            return nil
        }
        return message
    }
}
