#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `malloc`'d buffers the arenas are built in (``BreedArenaBuilder``, ``FactArenaBuilder``):
/// the C allocator's, so that an arena frees them as C would, and a failure to allocate is
/// named rather than trapped in an index.
enum ArenaMemory {
    /// Slack past a text buffer's end, so a decoder may store eight bytes at a time.
    static let slack = 16

    /// Room for `count` values of `T`.
    static func allocate<T>(_ type: T.Type, _ count: Int) -> UnsafeMutablePointer<T> {
        guard let memory = malloc(max(1, count * MemoryLayout<T>.stride)) else {
            fatalError("out of memory allocating \(count) × \(MemoryLayout<T>.stride) bytes")
        }
        return memory.bindMemory(to: T.self, capacity: count)
    }

    /// `pointer`'s buffer grown (or shrunk) to `count` values of `T`.
    static func reallocate<T>(_ pointer: UnsafeMutablePointer<T>, _ count: Int) -> UnsafeMutablePointer<T> {
        guard let memory = realloc(pointer, max(1, count * MemoryLayout<T>.stride)) else {
            fatalError("out of memory allocating \(count) × \(MemoryLayout<T>.stride) bytes")
        }
        return memory.bindMemory(to: T.self, capacity: count)
    }

    /// Makes `text` (of `capacity` bytes, and the slack past them) hold at least `needed`
    /// bytes: at least twice as many, so that appending field by field stays linear.
    @inline(__always)
    static func grow(_ text: inout UnsafeMutablePointer<UInt8>, capacity: inout Int, toHold needed: Int) {
        guard needed > capacity else { return }
        capacity = max(capacity * 2, needed)
        text = reallocate(text, capacity + slack)
    }

    /// Gives back what `text` holds past its `size` bytes when that is over 4 kB: a decoder
    /// sizes the text from the body, and a cached page keeps only what it used.
    static func trim(_ text: inout UnsafeMutablePointer<UInt8>, capacity: inout Int, size: Int) {
        guard capacity > size + 4096 else { return }
        text = reallocate(text, size + slack)
        capacity = size
    }

    /// Copies `value`'s UTF-8 to `destination` (which has room for it); whether it holds a NUL
    /// (JSON's `\u0000`, which C would take for the string's end).
    static func copy(_ value: inout String, to destination: UnsafeMutablePointer<UInt8>) -> Bool {
        value.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return false }
            destination.update(from: base, count: utf8.count)
            return memchr(destination, 0, utf8.count) != nil
        }
    }
}
