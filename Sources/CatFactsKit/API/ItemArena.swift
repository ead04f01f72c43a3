/// A page's items decoded once into one buffer, the `text` of the C array of its kind with
/// where each item's text starts (``BreedArena``, ``FactArena``): what pages, the cache and
/// the C face hold instead of values.
package protocol ItemArena: AnyObject, Sendable {
    associatedtype Item: Sendable
    /// The items held.
    var count: Int { get }
    /// The text's bytes, NULs included.
    var textSize: Int { get }
    /// Whether an item's text holds a NUL (JSON's `\u0000`), which C would take for its end.
    var hasEmbeddedNUL: Bool { get }
    /// The bytes its buffers take (the in-memory cache's cap counts them).
    var bufferBytes: Int { get }
    /// Every item, made now as values.
    func items() -> [Item]
}

extension BreedArena: ItemArena {
    package var bufferBytes: Int { textSize + count * Self.fields * MemoryLayout<UInt32>.stride }
    package func items() -> [Breed] { breeds() }
}

extension FactArena: ItemArena {
    package var bufferBytes: Int { textSize + count * (MemoryLayout<UInt32>.stride + MemoryLayout<Int>.stride) }
    package func items() -> [Fact] { facts() }
}
