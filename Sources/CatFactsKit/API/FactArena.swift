#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A page's facts decoded once into one buffer: each fact's text followed by a NUL, the
/// `text` of the C struct `cf_fact_array` byte for byte, so a C page is one copy of it; beside
/// it, where each fact starts and its length as the service counts it. ``Fact`` values are
/// made from it only when asked (``fact(at:)``, ``facts()``), as ``BreedArena`` does for breeds.
///
/// Immutable once built (``FactArenaBuilder``), so it is shared between threads, pages and
/// the cache without copying.
package final class FactArena: @unchecked Sendable {
    /// The facts held.
    package let count: Int
    /// The text: `textSize` bytes, exactly as C's `cf_fact_array.text` lays it out (unless
    /// ``hasEmbeddedNUL``).
    package let text: UnsafeMutablePointer<UInt8>
    package let textSize: Int
    /// Where fact `i`'s text starts in `text`.
    package let starts: UnsafeMutablePointer<UInt32>
    /// Fact `i`'s `length`, as the service sent it (or as counted, when it sent none).
    package let lengths: UnsafeMutablePointer<Int>
    /// Whether a fact holds a NUL (JSON's `\u0000`): C, which cuts a string there, then needs
    /// its own copy (``Fact`` keeps it).
    package let hasEmbeddedNUL: Bool

    /// Takes over the buffers (`malloc`'d): freed with the arena.
    init(count: Int, text: UnsafeMutablePointer<UInt8>, textSize: Int, starts: UnsafeMutablePointer<UInt32>,
         lengths: UnsafeMutablePointer<Int>, hasEmbeddedNUL: Bool) {
        self.count = count
        self.text = text
        self.textSize = textSize
        self.starts = starts
        self.lengths = lengths
        self.hasEmbeddedNUL = hasEmbeddedNUL
    }

    deinit {
        free(text)
        free(starts)
        free(lengths)
    }

    /// An arena of no facts (a page past the end).
    package static let empty: FactArena = {
        var builder = FactArenaBuilder(textCapacity: 0, factCapacity: 0)
        return builder.finish()
    }()

    /// The UTF-8 of fact `index`'s text (without its NUL).
    @inline(__always)
    package func text(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = Int(starts[index])
        let end = index + 1 < count ? Int(starts[index + 1]) : textSize
        return UnsafeBufferPointer(start: text + start, count: end - start - 1)
    }

    /// The fact at `index` (0 ..< ``count``), its string made now.
    package func fact(at index: Int) -> Fact {
        // Checked as UTF-8 when decoded.
        Fact(String(decoding: text(at: index), as: UTF8.self), length: lengths[index])
    }

    /// Every fact, in order.
    package func facts() -> [Fact] {
        (0..<count).map(fact(at:))
    }
}

/// Builds a ``FactArena``: facts appended in order; the buffers grow as needed (the decoder
/// sizes the text from the body, so it seldom does).
package struct FactArenaBuilder {
    private(set) var text: UnsafeMutablePointer<UInt8>
    private var textCapacity: Int
    /// Bytes of text written.
    var textSize = 0
    /// Where each fact starts, and its length: the fast path writes them itself.
    private(set) var starts: UnsafeMutablePointer<UInt32>
    private(set) var lengths: UnsafeMutablePointer<Int>
    private var factCapacity: Int
    /// Facts begun.
    private(set) var count = 0
    private var hasEmbeddedNUL = false

    package init(textCapacity: Int, factCapacity: Int) {
        self.textCapacity = max(textCapacity, 0)
        self.factCapacity = max(factCapacity, 1)
        text = ArenaMemory.allocate(UInt8.self, self.textCapacity + ArenaMemory.slack)
        starts = ArenaMemory.allocate(UInt32.self, self.factCapacity)
        lengths = ArenaMemory.allocate(Int.self, self.factCapacity)
    }

    /// Room for `bytes` more bytes of text (and the slack after them).
    @inline(__always)
    mutating func reserveText(_ bytes: Int) {
        ArenaMemory.grow(&text, capacity: &textCapacity, toHold: textSize + bytes)
    }

    /// Where the next text byte goes: the decoder writes there, at most the room reserved.
    var cursor: UnsafeMutablePointer<UInt8> { text + textSize }

    /// Begins a fact: its index, whose start and length the caller writes (``starts``,
    /// ``lengths``; ``append(_:)`` does).
    @inline(__always)
    mutating func beginFact() -> Int {
        if count == factCapacity {
            factCapacity *= 2
            starts = ArenaMemory.reallocate(starts, factCapacity)
            lengths = ArenaMemory.reallocate(lengths, factCapacity)
        }
        count &+= 1
        return count &- 1
    }

    /// Appends `fact` as it is.
    mutating func append(_ fact: Fact) {
        let index = beginFact()
        starts[index] = UInt32(truncatingIfNeeded: textSize)
        lengths[index] = fact.length
        var value = fact.text
        let textLength = value.utf8.count
        reserveText(textLength + 1)
        if ArenaMemory.copy(&value, to: cursor) { hasEmbeddedNUL = true }
        text[textSize + textLength] = 0
        textSize += textLength + 1
    }

    /// Appends a fact copied from a stored arena: its text (NUL included) and its length.
    mutating func append(stored: UnsafeBufferPointer<UInt8>, length: Int) {
        let index = beginFact()
        starts[index] = UInt32(truncatingIfNeeded: textSize)
        lengths[index] = length
        reserveText(stored.count)
        if let base = stored.baseAddress { cursor.update(from: base, count: stored.count) }
        textSize += stored.count
    }

    /// Notes that a stored arena's text holds a NUL inside a fact.
    mutating func noteEmbeddedNUL() { hasEmbeddedNUL = true }

    /// Forgets every fact written (the fast path gave up: the scanner starts again).
    mutating func reset() {
        textSize = 0
        count = 0
        hasEmbeddedNUL = false
    }

    /// The arena; the builder must not be used after.
    package mutating func finish() -> FactArena {
        ArenaMemory.trim(&text, capacity: &textCapacity, size: textSize)
        return FactArena(count: count, text: text, textSize: textSize, starts: starts, lengths: lengths,
                         hasEmbeddedNUL: hasEmbeddedNUL)
    }

    /// Frees the buffers of a builder that will not finish (an error).
    mutating func discard() {
        free(text)
        free(starts)
        free(lengths)
    }
}
