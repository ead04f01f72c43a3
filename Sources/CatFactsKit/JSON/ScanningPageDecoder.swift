/// ``PageDecoder`` that reads the bytes once with ``JSONScanner`` into breeds and facts
/// (the items the API pages through), with the same tolerance as the `Decodable` types:
/// `per_page` as number or string, `from`/`to` null, unknown keys skipped, fields trimmed.
/// The client's default: about ten times Foundation's `JSONDecoder` on a 1000-breed page
/// (see BENCHMARKS.md, "Decode throughput"). Other types are refused: `FoundationPageDecoder`
/// (the CatFactsFoundation module) reads any `Decodable`.
public struct ScanningPageDecoder: PageDecoder {
    public init() {}

    // Breeds and facts are matched by their concrete types, so the scanning runs specialized
    // (through the protocol, every item costs generic metadata work) and no conformance is
    // looked up at run time; the casts compare type metadata only, not each item.

    public func decodePage<Item: Decodable & Sendable>(_ type: Item.Type, from body: [UInt8]) throws(DecodeFailure) -> PageBody<Item> {
        // Breeds through the arena, as the client decodes them, so every test of this decoder
        // (against Foundation, the fuzzer, JSONTestSuite) runs on that path.
        if Item.self == Breed.self, let page = try decodeBreedArena(from: body).body as? PageBody<Item> { return page }
        if Item.self == Fact.self, let page = try decodeFactArena(from: body).body as? PageBody<Item> { return page }
        throw Self.notScanned(Item.self)
    }

    public func decodeObject<Value: Decodable>(_ type: Value.Type, from body: [UInt8]) throws(DecodeFailure) -> Value {
        if Value.self == Fact.self, let fact = try Self.object(of: Fact.self, from: body) as? Value { return fact }
        if Value.self == Breed.self, let breed = try Self.object(of: Breed.self, from: body) as? Value { return breed }
        throw Self.notScanned(Value.self)
    }

    /// The failure for a type this decoder does not read.
    private static func notScanned(_ type: Any.Type) -> DecodeFailure {
        DecodeFailure("ScanningPageDecoder reads breeds and facts, not \(type); FoundationPageDecoder (CatFactsFoundation) reads any Decodable")
    }

    private static let paginatorKeys = KeySet(["current_page", "data", "last_page", "per_page", "total", "from", "to"])

    private static func object<Value: ScannableItem>(of type: Value.Type, from body: [UInt8]) throws(DecodeFailure) -> Value {
        try scan(body) { scanner throws(ScanError) in try Value.scan(&scanner, keys: Value.keys) }
    }

    /// A page of breeds decoded into one ``BreedArena``: the shape the API sends by the fast
    /// path (``JSONScanner/fastBreeds(into:)``), anything else by the general one, with the
    /// same breeds and the same errors as ``decodePage(_:from:)``.
    package func decodeBreedArena(from body: [UInt8]) throws(DecodeFailure) -> BreedArenaPage {
        // The arena's offsets are 32-bit.
        guard body.count < Int(UInt32.max) else { throw DecodeFailure("a page body of \(body.count) bytes is too large to decode") }
        // Sized from the body, whose bytes the text never outgrows (a breed's closing quotes
        // pay for its NULs): one allocation, trimmed when the arena is finished.
        var made = BreedArenaBuilder(textCapacity: body.count, breedCapacity: body.count / Breed.usualBytes)
        do throws(DecodeFailure) {
            // `data` is read once: a repeated key is skipped (``KeysSeen``).
            var fast = false
            let (numbers, _) = try Self.paginator(body) { scanner throws(ScanError) in
                fast = scanner.fastBreeds(into: &made)
                if !fast {
                    try Self.scanItems(Breed.self, &scanner) { made.append($0) }
                }
            }
            return BreedArenaPage(currentPage: numbers.currentPage, lastPage: numbers.lastPage, perPage: numbers.perPage,
                                  total: numbers.total, arena: made.finish(), fastPath: fast)
        } catch {
            made.discard()
            throw error
        }
    }

    /// A page of facts decoded into one ``FactArena``, as ``decodeBreedArena(from:)`` decodes
    /// breeds: the API's shape by the fast path (``JSONScanner/fastFacts(into:)``), anything
    /// else by the general one, with the same facts and errors as ``decodePage(_:from:)``.
    package func decodeFactArena(from body: [UInt8]) throws(DecodeFailure) -> FactArenaPage {
        // The arena's offsets are 32-bit.
        guard body.count < Int(UInt32.max) else { throw DecodeFailure("a page body of \(body.count) bytes is too large to decode") }
        var made = FactArenaBuilder(textCapacity: body.count, factCapacity: body.count / Fact.usualBytes)
        do throws(DecodeFailure) {
            var fast = false
            let (numbers, _) = try Self.paginator(body) { scanner throws(ScanError) in
                fast = scanner.fastFacts(into: &made)
                if !fast {
                    try Self.scanItems(Fact.self, &scanner) { made.append($0) }
                }
            }
            return FactArenaPage(currentPage: numbers.currentPage, lastPage: numbers.lastPage, perPage: numbers.perPage,
                                 total: numbers.total, arena: made.finish(), fastPath: fast)
        } catch {
            made.discard()
            throw error
        }
    }

    /// The numbers of a paginated body (`current_page`, `last_page`, `per_page`, `total`).
    struct PageNumbers {
        var currentPage: Int
        var lastPage: Int
        var perPage: Int
        var total: Int
    }

    /// Reads a paginated body: its numbers, and its `data` by `readData` (the scanner at the
    /// array); keys in any order, unknown ones skipped, a repeated one read the first time.
    private static func paginator<Data>(_ body: [UInt8], readData: (inout JSONScanner) throws(ScanError) -> Data)
        throws(DecodeFailure) -> (PageNumbers, Data) {
        try scan(body) { scanner throws(ScanError) in
            var numbers: [Int?] = [nil, nil, nil, nil, nil]  // current_page, -, last_page, per_page, total
            var data: Data?
            var seen = KeysSeen()
            try scanner.beginObject()
            while let key = try scanner.nextNewKey(among: paginatorKeys, seen: &seen) {
                try within(.key(paginatorKeys.name(key))) { () throws(ScanError) in
                    switch key {
                    case 1: data = try readData(&scanner)
                    case 0, 2, 3, 4: numbers[key] = try scanner.lenientInt()
                    case 5, 6: _ = try scanner.optionalLenientInt()
                    default: try scanner.skipValue()
                    }
                }
            }
            func required(_ key: Int) throws(ScanError) -> Int {
                guard let value = numbers[key] else { throw .missingKey(paginatorKeys.name(key), path: []) }
                return value
            }
            let currentPage = try required(0)
            guard let data else { throw .missingKey("data", path: []) }
            return (PageNumbers(currentPage: currentPage, lastPage: try required(2), perPage: try required(3),
                                total: try required(4)), data)
        }
    }

    /// The items of the array at the scanner, each handed to `add`; errors name the index.
    @inline(__always)
    private static func scanItems<Item: ScannableItem>(_ type: Item.Type, _ scanner: inout JSONScanner,
                                                       _ add: (Item) -> Void) throws(ScanError) {
        let keys = Item.keys
        try scanner.beginArray()
        var index = 0
        while try scanner.nextElement() {
            try within(.index(index)) { () throws(ScanError) in add(try Item.scan(&scanner, keys: keys)) }
            index += 1
        }
    }

    /// Runs `read` over `body` as a whole document; its errors become a ``DecodeFailure``.
    static func scan<T>(_ body: [UInt8], _ read: (inout JSONScanner) throws(ScanError) -> T) throws(DecodeFailure) -> T {
        let result = body.withUnsafeBufferPointer { bytes -> Result<T, ScanError> in
            var scanner = JSONScanner(bytes)
            do throws(ScanError) {
                let value = try read(&scanner)
                try scanner.end()
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw DecodeFailure((syntaxError(in: body) ?? error).description)
        }
    }
}

/// The first syntax error of `body` read as any JSON, or `nil`: a body that is broken
/// somewhere is reported as broken, even when a reader met a missing key before the break.
private func syntaxError(in body: [UInt8]) -> ScanError? {
    body.withUnsafeBufferPointer { bytes in
        var scanner = JSONScanner(bytes)
        do throws(ScanError) {
            try scanner.skipValue()
            try scanner.end()
            return nil
        } catch {
            return error
        }
    }
}

/// Runs `body`, adding `part` to the front of the path of a type, key or value error it throws.
/// The part is made only when there is an error (it runs for every field of every item).
func within<T>(_ part: @autoclosure () -> ScanError.PathPart, _ body: () throws(ScanError) -> T) throws(ScanError) -> T {
    do {
        return try body()
    } catch {
        throw error.under(part())
    }
}

/// An item the API pages through that ``JSONScanner`` can read directly.
protocol ScannableItem: Sendable {
    /// The keys of an item's object.
    static var keys: KeySet { get }
    /// About the fewest bytes an item of a real page takes (its object and the comma after):
    /// the body's bytes over it are the list's capacity, a little more than it needs.
    static var usualBytes: Int { get }
    /// Reads one item, the scanner at its first byte; `keys` is ``keys``, read once per page
    /// by the caller (a static read per item goes through a lazy-initialisation check).
    static func scan(_ scanner: inout JSONScanner, keys: KeySet) throws(ScanError) -> Self
}

extension Breed: ScannableItem {
    static let keys = KeySet(["breed", "country", "origin", "coat", "pattern"])
    // A breed of the API's or the mock's pages takes 86 to 145 bytes (112 on average).
    static var usualBytes: Int { 96 }

    static func scan(_ scanner: inout JSONScanner, keys: KeySet) throws(ScanError) -> Breed {
        var name: String?
        var country: String?, origin: String?, coat: String?, pattern: String?
        var expected = 0
        var seen = KeysSeen()
        try scanner.beginObject()
        while let key = try scanner.nextNewKey(among: keys, expected: expected, seen: &seen) {
            expected = key + 1
            let value = try within(.key(keys.name(key))) { () throws(ScanError) -> String? in
                guard let (text, trimmed) = try scanner.optionalStringNotingEnds() else {
                    if key == 0 { throw .mismatch(expected: "String", path: [], found: "null") }
                    return nil
                }
                let value = trimmed ? text : Breed.presence(text)
                if key == 0, value == nil { throw .invalid("breed name is empty", path: []) }
                return value
            }
            switch key {
            case 0: name = value
            case 1: country = value
            case 2: origin = value
            case 3: coat = value
            default: pattern = value
            }
        }
        guard let name else { throw .missingKey("breed", path: []) }
        return Breed(trimmedName: name, country: country, origin: origin, coat: coat, pattern: pattern)
    }
}

extension Fact: ScannableItem {
    static let keys = KeySet(["fact", "length"])
    // A fact's text alone is seldom under 100 bytes.
    static var usualBytes: Int { 128 }

    static func scan(_ scanner: inout JSONScanner, keys: KeySet) throws(ScanError) -> Fact {
        var text: String?
        var length: Int?
        var seen = KeysSeen()
        try scanner.beginObject()
        while let key = try scanner.nextNewKey(among: keys, seen: &seen) {
            switch key {
            case 0: text = try within(.key("fact")) { () throws(ScanError) in try scanner.string() }
            case 1: length = try within(.key("length")) { () throws(ScanError) in try scanner.optionalLenientInt() }
            default: try scanner.skipValue()
            }
        }
        guard let text else { throw .missingKey("fact", path: []) }
        return Fact(text, length: length)
    }
}

/// What the scanner found wrong: bad syntax (with the byte offset), or a document of the
/// wrong shape (with the key path, built as the error travels out).
enum ScanError: Error, CustomStringConvertible {
    case syntax(String, offset: Int, size: Int)
    case mismatch(expected: String, path: [PathPart], found: String? = nil)
    case missingKey(String, path: [PathPart])
    case invalid(String, path: [PathPart])

    /// One step of a key path.
    enum PathPart {
        case key(String)
        case index(Int)
    }

    /// The error with `part` added to the front of its path.
    func under(_ part: PathPart) -> ScanError {
        switch self {
        case .syntax: self
        case .mismatch(let expected, let path, let found): .mismatch(expected: expected, path: [part] + path, found: found)
        case .missingKey(let key, let path): .missingKey(key, path: [part] + path)
        case .invalid(let what, let path): .invalid(what, path: [part] + path)
        }
    }

    var description: String {
        switch self {
        case .syntax(let what, let offset, let size):
            "the body is not valid JSON (\(size) bytes: \(what) at byte \(offset))"
        case .mismatch(let expected, let path, let found):
            "expected \(expected) at \(Self.text(path))" + (found.map { ", found \($0)" } ?? "")
        case .missingKey(let key, let path):
            "missing key '\(key)' at \(Self.text(path))"
        case .invalid(let what, let path):
            "\(what) at \(Self.text(path))"
        }
    }

    /// `'data[1].breed'`, or "the top level" (the way `FoundationPageDecoder` says it).
    private static func text(_ path: [PathPart]) -> String {
        let text = path.reduce(into: "") { out, part in
            switch part {
            case .index(let index): out += "[\(index)]"
            case .key(let key): out += out.isEmpty ? key : ".\(key)"
            }
        }
        return text.isEmpty ? "the top level" : "'\(text)'"
    }
}
