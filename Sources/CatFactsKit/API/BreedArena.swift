#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A page's breeds decoded once into one buffer: every field's text followed by a NUL, five
/// fields a breed (breed, country, origin, coat, pattern), an absent field as an empty string:
/// the `text` of the C struct `cf_breed_array` byte for byte, so a C page is one copy of it.
/// Beside it, where each field starts. ``Breed`` values are made from it only when asked
/// (``breed(at:)``, ``breeds()``): a page that only goes to C or Python never makes one.
///
/// Immutable once built (``BreedArenaBuilder``), so it is shared between threads, pages and
/// the cache without copying.
package final class BreedArena: @unchecked Sendable {
    /// Fields of a breed, in the order of `text`.
    package static let fields = 5
    /// The breeds held.
    package let count: Int
    /// The text: `textSize` bytes, exactly as C's `cf_breed_array.text` lays it out (unless
    /// ``hasEmbeddedNUL``).
    package let text: UnsafeMutablePointer<UInt8>
    package let textSize: Int
    /// Where field `f` of breed `i` starts in `text`: `starts[5 i + f]`.
    package let starts: UnsafeMutablePointer<UInt32>
    /// Whether a field holds a NUL (JSON's `\u0000`): then `text` holds more NULs than
    /// `5 × count`, and C, which cuts a string there, needs its own copy (``Breed`` keeps it).
    package let hasEmbeddedNUL: Bool

    /// Takes over `text` and `starts` (`malloc`'d): freed with the arena.
    init(count: Int, text: UnsafeMutablePointer<UInt8>, textSize: Int, starts: UnsafeMutablePointer<UInt32>,
         hasEmbeddedNUL: Bool) {
        self.count = count
        self.text = text
        self.textSize = textSize
        self.starts = starts
        self.hasEmbeddedNUL = hasEmbeddedNUL
    }

    deinit {
        free(text)
        free(starts)
    }

    /// An arena of no breeds (a page past the end).
    package static let empty: BreedArena = {
        var builder = BreedArenaBuilder(textCapacity: 0, breedCapacity: 0)
        return builder.finish()
    }()

    /// The UTF-8 of field `field` of breed `index` (without its NUL); empty when absent.
    @inline(__always)
    package func field(_ index: Int, _ field: Int) -> UnsafeBufferPointer<UInt8> {
        let slot = index * Self.fields + field
        let start = Int(starts[slot])
        let end = slot + 1 < count * Self.fields ? Int(starts[slot + 1]) : textSize
        return UnsafeBufferPointer(start: text + start, count: end - start - 1)
    }

    /// The breed at `index` (0 ..< ``count``), its strings made now.
    package func breed(at index: Int) -> Breed {
        Breed(trimmedName: string(index, 0), country: optional(index, 1), origin: optional(index, 2),
              coat: optional(index, 3), pattern: optional(index, 4))
    }

    /// Every breed, in order.
    package func breeds() -> [Breed] {
        (0..<count).map(breed(at:))
    }

    /// Breeds `range`, in order.
    package func breeds(_ range: Range<Int>) -> [Breed] {
        range.map(breed(at:))
    }

    /// The name of breed `index` (never empty).
    package func name(at index: Int) -> String { string(index, 0) }

    @inline(__always)
    private func string(_ index: Int, _ field: Int) -> String {
        // Checked as UTF-8 when decoded: this makes the string, small ones without allocating.
        String(decoding: self.field(index, field), as: UTF8.self)
    }

    @inline(__always)
    private func optional(_ index: Int, _ field: Int) -> String? {
        let bytes = self.field(index, field)
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}

/// Builds a ``BreedArena``: fields appended in order, five a breed; the buffers grow as
/// needed (the decoder sizes them from the body, so they seldom do).
package struct BreedArenaBuilder {
    private(set) var text: UnsafeMutablePointer<UInt8>
    private(set) var textCapacity: Int
    /// Bytes of text written.
    var textSize = 0
    private var starts: UnsafeMutablePointer<UInt32>
    private var breedCapacity: Int
    /// Breeds begun (their five starts written).
    private(set) var count = 0
    private var hasEmbeddedNUL = false
    /// The slot of the field begun last.
    private var lastSlot = 0

    /// Slack past the text's end, so the decoder may store eight bytes at a time.
    static let slack = ArenaMemory.slack

    package init(textCapacity: Int, breedCapacity: Int) {
        self.textCapacity = max(textCapacity, 0)
        self.breedCapacity = max(breedCapacity, 1)
        text = ArenaMemory.allocate(UInt8.self, self.textCapacity + Self.slack)
        starts = ArenaMemory.allocate(UInt32.self, self.breedCapacity * BreedArena.fields)
    }

    /// Room for `bytes` more bytes of text (and the slack after them).
    @inline(__always)
    mutating func reserveText(_ bytes: Int) {
        ArenaMemory.grow(&text, capacity: &textCapacity, toHold: textSize + bytes)
    }

    /// Where the next text byte goes: the decoder writes there, at most the room reserved.
    var cursor: UnsafeMutablePointer<UInt8> { text + textSize }

    /// Notes that field `field` of the current breed starts at the cursor (field 0 begins a
    /// breed).
    @inline(__always)
    mutating func startField(_ field: Int) {
        if field == 0 {
            if count == breedCapacity {
                breedCapacity *= 2
                starts = ArenaMemory.reallocate(starts, breedCapacity * BreedArena.fields)
            }
            count += 1
        }
        lastSlot = (count - 1) * BreedArena.fields + field
        starts[lastSlot] = UInt32(truncatingIfNeeded: textSize)
    }

    /// Begins a breed whose five starts and text the caller writes itself (the fast path,
    /// into room it reserved): where its starts go. The caller sets ``textSize`` when done.
    @inline(__always)
    mutating func beginBreed() -> UnsafeMutablePointer<UInt32> {
        if count == breedCapacity {
            breedCapacity *= 2
            starts = ArenaMemory.reallocate(starts, breedCapacity * BreedArena.fields)
        }
        count &+= 1
        return starts + (count &- 1) &* BreedArena.fields
    }

    /// Ends the field being written: `length` bytes were written at the cursor, then its NUL.
    @inline(__always)
    mutating func endField(length: Int) {
        text[textSize + length] = 0
        textSize += length + 1
    }

    /// Appends `breed`, its fields as they are (the decoder trimmed them).
    mutating func append(_ breed: Breed) {
        put(breed.breed, field: 0)
        put(breed.country, field: 1)
        put(breed.origin, field: 2)
        put(breed.coat, field: 3)
        put(breed.pattern, field: 4)
    }

    private mutating func put(_ value: String?, field: Int) {
        startField(field)
        guard var value else { return endField(length: 0) }
        let length = value.utf8.count
        reserveText(length + 1)
        if ArenaMemory.copy(&value, to: cursor) { hasEmbeddedNUL = true }
        endField(length: length)
    }

    /// Sets where the field just begun (``startField(_:)``) starts, for an arena copied whole
    /// (``copyText(_:count:hasEmbeddedNUL:)`` brings its text).
    mutating func setStart(_ offset: Int) {
        starts[lastSlot] = UInt32(truncatingIfNeeded: offset)
    }

    /// The text of an arena copied whole, its fields' starts set already (``setStart(_:)``).
    mutating func copyText(_ source: UnsafePointer<UInt8>, count: Int, hasEmbeddedNUL: Bool) {
        reserveText(count)
        text.update(from: source, count: count)
        textSize = count
        self.hasEmbeddedNUL = hasEmbeddedNUL
    }

    /// Forgets every breed written (the fast path gave up: the scanner starts again).
    mutating func reset() {
        textSize = 0
        count = 0
        hasEmbeddedNUL = false
    }

    /// The arena; the builder must not be used after.
    package mutating func finish() -> BreedArena {
        ArenaMemory.trim(&text, capacity: &textCapacity, size: textSize)
        return BreedArena(count: count, text: text, textSize: textSize, starts: starts, hasEmbeddedNUL: hasEmbeddedNUL)
    }

    /// Frees the buffers of a builder that will not finish (an error).
    mutating func discard() {
        free(text)
        free(starts)
    }
}
