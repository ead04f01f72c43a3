import CatFactsKit
import CCatFactsHeader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Breeds laid out for C in one `malloc`'d block, freed whole with `cf_free`: a header
/// (`cf_breed_array`, or `cf_breed_page` that holds one), then the `cf_breed`s, then their
/// strings, five per breed, each followed by a NUL, an absent field as an empty string (the
/// `text` of `cf_breed_array`, documented in include/catfacts.h). One allocation and one
/// copy of each string, however many breeds: this is what makes a batch cheap per item.
enum CBreedBlock {
    /// A block for `breeds` whose header `header` makes from the laid-out array.
    static func make<Header>(_ breeds: ArraySlice<Breed>, header: (cf_breed_array) -> Header)
        -> UnsafeMutablePointer<Header> {
        // Through the buffer, fields borrowed in place: no retain and release of each breed.
        breeds.withUnsafeBufferPointer { make($0, header: header) }
    }

    private static func make<Header>(_ breeds: UnsafeBufferPointer<Breed>, header: (cf_breed_array) -> Header)
        -> UnsafeMutablePointer<Header> {
        let itemStride = MemoryLayout<cf_breed>.stride
        // The items follow the header at cf_breed's alignment.
        let itemsOffset = roundUp(MemoryLayout<Header>.size, to: MemoryLayout<cf_breed>.alignment)
        let textOffset = itemsOffset + breeds.count * itemStride
        var textCapacity = 0
        for index in breeds.indices {
            textCapacity += breeds[index].name.utf8.count + (breeds[index].country?.utf8.count ?? 0)
                + (breeds[index].origin?.utf8.count ?? 0) + (breeds[index].coat?.utf8.count ?? 0)
                + (breeds[index].pattern?.utf8.count ?? 0) + 5
        }
        let block = allocate(textOffset + textCapacity)
        let items = (block + itemsOffset).bindMemory(to: cf_breed.self, capacity: breeds.count)
        let text = (block + textOffset).bindMemory(to: UInt8.self, capacity: textCapacity)
        var cursor = text
        for index in breeds.indices {
            // Field by field, in the documented order: the hot loop of every batch.
            let name = put(breeds[index].name, at: &cursor)
            let country = put(breeds[index].country, at: &cursor)
            let origin = put(breeds[index].origin, at: &cursor)
            let coat = put(breeds[index].coat, at: &cursor)
            let pattern = put(breeds[index].pattern, at: &cursor)
            (items + index).initialize(to: cf_breed(breed: name.start, country: country.present, origin: origin.present,
                                                    coat: coat.present, pattern: pattern.present))
        }
        let array = cf_breed_array(count: Int64(breeds.count), items: UnsafePointer(items),
                                   text: UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self),
                                   text_size: cursor - text)
        let made = block.bindMemory(to: Header.self, capacity: 1)
        made.initialize(to: header(array))
        return made
    }

    /// A string written where the block's text goes on.
    private struct Placed {
        /// Where it starts (an empty string: its NUL).
        let start: UnsafePointer<CChar>
        /// `start`, or `nil` for an absent (empty) field.
        let present: UnsafePointer<CChar>?
    }

    /// Writes `text` (cut at a NUL it holds; absent: nothing) and a NUL at `cursor`, and moves
    /// the cursor past them.
    @inline(__always)
    private static func put(_ text: String?, at cursor: inout UnsafeMutablePointer<UInt8>) -> Placed {
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
    static func copyCut(_ text: String, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        // Native strings lend their UTF-8 in place; others are copied byte by byte.
        text.utf8.withContiguousStorageIfAvailable { utf8 -> Int in
            // A byte loop, not memchr + memcpy: fields are a few bytes, where memchr's
            // set-up cost was half of a batch's time.
            var written = 0
            while written < utf8.count, utf8[written] != 0 {
                destination[written] = utf8[written]
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

    private static func roundUp(_ size: Int, to alignment: Int) -> Int {
        (size + alignment - 1) / alignment * alignment
    }

    /// `malloc`, so that `cf_free` (C's `free`) is right; it fails only when memory is exhausted.
    private static func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        guard let block = malloc(max(1, size)) else { fatalError("out of memory allocating \(size) bytes") }
        return block
    }
}
