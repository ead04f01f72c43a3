import CCatFactsHeader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the C face's hand-outs share: each is one `malloc`'d block (so that `free`, which
/// `cf_free` calls, releases it whole: the header's one freeing rule), a header, items and
/// the text they point into, each string followed by a NUL.
enum CBlock {
    /// A block of `count` items: the header `header` makes from the items, their text and
    /// its size in bytes; then the items at their alignment, each made by `item` from its
    /// index and the text cursor, where it writes its strings (``put(_:at:)``); then that
    /// text, `textCapacity` bytes at most. Inlined, so a batch's per-item loop runs with no
    /// call through a closure.
    @inline(__always)
    static func make<Item, Header>(count: Int, textCapacity: Int,
                                   item: (Int, inout UnsafeMutablePointer<UInt8>) -> Item,
                                   header: (UnsafePointer<Item>, UnsafePointer<CChar>, Int) -> Header)
        -> UnsafeMutablePointer<Header> {
        let itemsOffset = roundUp(MemoryLayout<Header>.size, to: MemoryLayout<Item>.alignment)
        let textOffset = itemsOffset + count * MemoryLayout<Item>.stride
        let block = allocate(textOffset + textCapacity)
        let items = (block + itemsOffset).bindMemory(to: Item.self, capacity: count)
        let text = (block + textOffset).bindMemory(to: UInt8.self, capacity: textCapacity)
        var cursor = text
        for index in 0..<count {
            (items + index).initialize(to: item(index, &cursor))
        }
        let made = block.bindMemory(to: Header.self, capacity: 1)
        made.initialize(to: header(UnsafePointer(items), UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self), cursor - text))
        return made
    }

    /// A block of `count` items whose text is `textSize` bytes already laid out (NULs
    /// included) at `source`, copied in one go; `fill` initializes the items, pointing into
    /// the copied text. For pages decoded into an arena: one allocation and one copy.
    @inline(__always)
    static func make<Item, Header>(count: Int, textCapacity textSize: Int, copying source: UnsafePointer<UInt8>,
                                   fill: (UnsafePointer<CChar>, UnsafeMutablePointer<Item>) -> Void,
                                   header: (UnsafePointer<Item>, UnsafePointer<CChar>, Int) -> Header)
        -> UnsafeMutablePointer<Header> {
        let itemsOffset = roundUp(MemoryLayout<Header>.size, to: MemoryLayout<Item>.alignment)
        let textOffset = itemsOffset + count * MemoryLayout<Item>.stride
        let block = allocate(textOffset + textSize)
        let items = (block + itemsOffset).bindMemory(to: Item.self, capacity: count)
        let text = (block + textOffset).bindMemory(to: UInt8.self, capacity: textSize)
        text.update(from: source, count: textSize)
        let cText = UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self)
        fill(cText, items)
        let made = block.bindMemory(to: Header.self, capacity: 1)
        made.initialize(to: header(UnsafePointer(items), cText, textSize))
        return made
    }

    /// `malloc(size)` (at least one byte); it fails only when memory is exhausted.
    static func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        guard let block = malloc(max(1, size)) else { fatalError("out of memory allocating \(size) bytes") }
        return block
    }

    /// `size` rounded up to a multiple of `alignment`: where items after a header start.
    private static func roundUp(_ size: Int, to alignment: Int) -> Int {
        (size + alignment - 1) / alignment * alignment
    }

    /// A string written where a block's text goes on.
    struct Placed {
        /// Where it starts (an empty string: its NUL).
        let start: UnsafePointer<CChar>
        /// `start`, or `nil` for an absent (empty) field.
        let present: UnsafePointer<CChar>?
    }

    /// Writes `text` (cut at a NUL it holds; absent: nothing) and a NUL at `cursor`, and moves
    /// the cursor past them.
    @inline(__always)
    static func put(_ text: String?, at cursor: inout UnsafeMutablePointer<UInt8>) -> Placed {
        let start = cursor
        let count = text.map { copyCut($0, to: start) } ?? 0
        start[count] = 0
        cursor += count + 1
        let pointer = UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)
        return Placed(start: pointer, present: count == 0 ? nil : pointer)
    }

    /// Copies `text`'s UTF-8 up to its first NUL (a C string ends there) to `destination`,
    /// which has room for all of it; the bytes copied.
    @inline(__always)
    private static func copyCut(_ text: String, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        // Native strings lend their UTF-8 in place; others are copied byte by byte.
        text.utf8.withContiguousStorageIfAvailable { utf8 -> Int in
            // Eight bytes a step while none is a NUL, then byte by byte, not memchr + memcpy:
            // fields are a few bytes, where memchr's set-up cost was half of a batch's time.
            // The byte loop alone took 7 instructions a byte (callgrind of a C sweep).
            guard let source = utf8.baseAddress else { return 0 }
            let count = utf8.count
            var written = 0
            while written + 8 <= count {
                let word = UnsafeRawPointer(source + written).loadUnaligned(as: UInt64.self)
                guard !hasZeroByte(word) else { break }
                UnsafeMutableRawPointer(destination + written).storeBytes(of: word, as: UInt64.self)
                written += 8
            }
            while written < count, source[written] != 0 {
                destination[written] = source[written]
                written += 1
            }
            return written
        } ?? {
            var written = 0
            for byte in text.utf8 {
                if byte == 0 { break }
                destination[written] = byte
                written += 1
            }
            return written
        }()
    }

    /// Whether one of `word`'s eight bytes is 0 (the classic test: a byte below 0x80 that
    /// borrows when 1 is taken from it).
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
    }
}
