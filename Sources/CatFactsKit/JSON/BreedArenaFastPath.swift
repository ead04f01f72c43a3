/// The fast path of breed pages: the `data` array exactly as the API (and the mock) sends it,
/// `[{"breed":"…","country":"…","origin":"…","coat":"…","pattern":"…"},…]` with no white
/// space, written straight into a ``BreedArenaBuilder``: each string's bytes copied eight at a
/// time as they are scanned, its closing quote becoming the NUL. Escapes are undone on the way:
/// `\/` (PHP escapes every slash), `\uXXXX` (and every non-ASCII character), `\"`, `\\`, `\b`,
/// `\f`, `\n`, `\r`, `\t`.
///
/// Anything else (white space, another key order, a missing, unknown or repeated key, `null`,
/// `\u0000`, a lone surrogate, a field to trim, an empty name, bad UTF-8, a control character) makes it
/// give up, having moved nothing: the scanner then reads the same array the general way, so
/// the results and error texts are the general path's.
extension JSONScanner {
    /// Reads the array at the scanner's offset into `builder` (which must be empty), or
    /// returns `false` with the scanner and the builder as they were.
    ///
    /// Written for few instructions a field (a page has five thousand): the keys are read once
    /// a page, the five fields of a breed are unrolled, the text is written through a local
    /// cursor into room reserved once, and the index arithmetic, bounded by the body's size,
    /// wraps instead of checking for overflow.
    mutating func fastBreeds(into builder: inout BreedArenaBuilder) -> Bool {
        let keys = FastKeys.breed
        return fastArray(into: &builder) { base, index, end, out, builder in
            Self.readBreed(base, &index, end, keys, text: builder.text, out: &out, starts: builder.beginBreed())
        }
    }

    /// One breed object at `index`, moving past its `}`: its five fields in the API's order,
    /// their starts (offsets in `text`) into `starts`.
    @inline(__always)
    private static func readBreed(_ base: UnsafePointer<UInt8>, _ index: inout Int, _ end: Int, _ keys: FastKeys.BreedKeys,
                                  text: UnsafePointer<UInt8>, out: inout UnsafeMutablePointer<UInt8>,
                                  starts: UnsafeMutablePointer<UInt32>) -> Bool {
        guard readField(base, &index, end, keys.breed, emptyAllowed: false, trims: true, text: text, out: &out, start: starts),
              readField(base, &index, end, keys.country, emptyAllowed: true, trims: true, text: text, out: &out, start: starts + 1),
              readField(base, &index, end, keys.origin, emptyAllowed: true, trims: true, text: text, out: &out, start: starts + 2),
              readField(base, &index, end, keys.coat, emptyAllowed: true, trims: true, text: text, out: &out, start: starts + 3),
              readField(base, &index, end, keys.pattern, emptyAllowed: true, trims: true, text: text, out: &out, start: starts + 4),
              index < end, base[index] == Ascii.closeBrace
        else { return false }
        index &+= 1
        return true
    }
}

extension FastKeys {
    /// The five keys of a breed, in the order the API sends them; the first opens the object.
    struct BreedKeys {
        let breed = FastKeys("{\"breed\":\"")
        let country = FastKeys(",\"country\":\"")
        let origin = FastKeys(",\"origin\":\"")
        let coat = FastKeys(",\"coat\":\"")
        let pattern = FastKeys(",\"pattern\":\"")
    }

    /// Made once, read once a page.
    static let breed = BreedKeys()
}
