/// Any `Encodable` value as JSON text, as Foundation's `JSONEncoder` writes it with
/// `[.sortedKeys, .withoutEscapingSlashes]`: keys sorted by their UTF-8 bytes, `/` unescaped,
/// a `nil` optional left out, a whole `Double` without `.0`, strings escaped by ``JSONWriter``.
/// For the values without a ``JSONWritable`` conformance (OTLP's JSON, the shell's own
/// documents); the library does not link Foundation (see ``Timestamp``).
///
/// The value is first encoded into a tree of ``Node``s (a keyed container may be asked for
/// the same key twice, or a nested container after a sibling), then written once.
enum JSONTreeEncoder {
    /// `value` as JSON text; a value that encodes nothing is `{}`. Throws what the value's
    /// `encode(to:)` throws (`EncodingError.invalidValue` for a non-finite number).
    static func text<Value: Encodable>(_ value: Value) throws -> String {
        let root = Node()
        try value.encode(to: TreeEncoder(node: root, codingPath: []))
        var writer = JSONWriter()
        root.write(to: &writer)
        return writer.text
    }

    /// One value of the tree: set once as a scalar, or filled as an array or an object. An
    /// array's elements and an object's members are stored on the node, not in `content`, so
    /// that adding one appends in place instead of copying the whole collection out of an enum
    /// and back (which made an object of n members cost n² copies).
    final class Node {
        enum Content {
            case empty, null, bool(Bool), number(String), string(String), array, object
        }
        var content = Content.empty
        /// The elements while `content` is `.array`.
        var elements: [Node] = []
        /// The members while `content` is `.object`.
        var members: [String: Node] = [:]

        /// Makes the node an object, keeping its members if it is one already.
        func becomeObject() {
            if case .object = content { return }
            content = .object
            members = [:]
        }

        /// Makes the node an array, keeping its elements if it is one already.
        func becomeArray() {
            if case .array = content { return }
            content = .array
            elements = []
        }

        func write(to writer: inout JSONWriter) {
            switch content {
            case .empty: writer.raw("{}")
            case .null: writer.raw("null")
            case .bool(let value): writer.raw(value ? "true" : "false")
            case .number(let text): writer.raw(text)
            case .string(let text): writer.string(text)
            case .array:
                let nodes = elements
                writer.array(count: nodes.count) { writer, index in nodes[index].write(to: &writer) }
            case .object:
                let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                writer.object { writer in
                    for key in keys {
                        guard let node = members[key] else { continue }
                        writer.member(dynamic: key) { node.write(to: &$0) }
                    }
                }
            }
        }
    }

    /// A number's JSON text: integers as they are, doubles as Swift writes them without a
    /// trailing `.0`; a non-finite double is refused, as `JSONEncoder` refuses it.
    static func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        var text = "\(value)"
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    struct TreeEncoder: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.becomeObject()
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.becomeArray()
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
    }

    /// Encodes `value` into `node`, scalars directly (so a `String` is a string, not an
    /// object), anything else through its `encode(to:)`.
    static func encode<Value: Encodable>(_ value: Value, into node: Node, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: node.content = .string(text)
        case let flag as Bool: node.content = .bool(flag)
        case let double as Double: node.content = .number(try number(double, codingPath))
        case let float as Float: node.content = .number(try number(Double(float), codingPath))
        case let integer as any BinaryInteger: node.content = .number("\(integer)")
        default: try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func child(_ key: Key) -> Node {
            node.becomeObject()
            if let existing = node.members[key.stringValue] { return existing }
            let child = Node()
            node.members[key.stringValue] = child
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { child(key).content = .null }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try JSONTreeEncoder.encode(value, into: child(key), codingPath: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            TreeEncoder(node: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            TreeEncoder(node: child(key), codingPath: codingPath + [key]).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            let parent = Node()
            node.becomeObject()
            node.members["super"] = parent
            return TreeEncoder(node: parent, codingPath: codingPath)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(node: child(key), codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.elements.count }

        private func next() -> Node {
            let element = Node()
            node.becomeArray()
            node.elements.append(element)
            return element
        }

        mutating func encodeNil() throws { next().content = .null }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try JSONTreeEncoder.encode(value, into: next(), codingPath: codingPath)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            TreeEncoder(node: next(), codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            TreeEncoder(node: next(), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { TreeEncoder(node: next(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.content = .null }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try JSONTreeEncoder.encode(value, into: node, codingPath: codingPath)
        }
    }
}
