/// Prefixes known to match no name, as a trie: once "xq" found nothing, "xqz" is answered
/// without searching. Belongs to one catalog: a new catalog starts a new list.
struct PrefixDenyList: Sendable, Equatable {
    private struct Node: Sendable, Equatable {
        var children: [Character: Node] = [:]
        var denied = false
    }

    private var root = Node()

    /// Longer prefixes are not remembered: no name is this long, a search that long is rare,
    /// and the trie is walked, built and freed one level per character, recursively, so an
    /// unbounded one (a 1 MB search from a caller) would exhaust a thread's stack.
    static let longestRemembered = 256

    /// Whether `prefix` or one of its own prefixes is known to match nothing.
    func covers(_ prefix: String) -> Bool {
        var node = root
        for character in prefix {
            guard let next = node.children[character] else { return false }
            if next.denied { return true }
            node = next
        }
        return false
    }

    /// Records that `prefix` matches nothing (and forgets the longer prefixes it covers).
    mutating func deny(_ prefix: String) {
        guard !prefix.isEmpty, prefix.utf8.count <= Self.longestRemembered else { return }
        Self.deny(Substring(prefix), in: &root)
    }

    private static func deny(_ rest: Substring, in node: inout Node) {
        guard let first = rest.first else {
            node.denied = true
            node.children.removeAll()
            return
        }
        if node.denied { return }
        deny(rest.dropFirst(), in: &node.children[first, default: Node()])
    }
}
