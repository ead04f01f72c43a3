/// A failed Laravel validation: status 422 with the framework's JSON,
/// `{"message":"…","errors":{"page":["The page must be an integer."]}}`.
struct LaravelValidationError: Error, Equatable {
    /// Each failing parameter with its message, in the order the rules ran.
    var errors: [(field: String, message: String)] = []

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.errors.elementsEqual(rhs.errors) { $0.field == $1.field && $0.message == $1.message }
    }

    /// Laravel's summary: the first message, plus "(and N more error[s])".
    var message: String {
        guard let first = errors.first else { return "The given data was invalid." }
        let more = errors.count - 1
        switch more {
        case 0: return first.message
        case 1: return first.message + " (and 1 more error)"
        default: return first.message + " (and \(more) more errors)"
        }
    }

    /// The 422 body.
    var body: [UInt8] {
        var json = PHPJSONWriter()
        json.raw("{\"message\":")
        json.string(message)
        json.raw(",\"errors\":{")
        for (index, error) in errors.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(error.field)
            json.raw(":[")
            json.string(error.message)
            json.raw("]")
        }
        json.raw("}}")
        return json.bytes
    }
}
