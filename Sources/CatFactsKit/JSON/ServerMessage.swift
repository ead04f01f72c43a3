/// The message of an error body in Laravel's shape, `{"message": "..."}`.
enum ServerMessage {
    private static let keys = KeySet(["message"])

    /// The body's non-empty `message` (other members skipped); `nil` when the body is not
    /// such an object.
    static func laravel(in body: [UInt8]) -> String? {
        let message = try? ScanningPageDecoder.scan(body) { scanner throws(ScanError) -> String? in
            try scanner.beginObject()
            var seen = KeysSeen()
            var message: String?
            while let key = try scanner.nextNewKey(among: keys, seen: &seen) {
                if key == 0 { message = try scanner.string() } else { try scanner.skipValue() }
            }
            return message
        }
        guard let message, !message.isEmpty else { return nil }
        return message
    }
}
