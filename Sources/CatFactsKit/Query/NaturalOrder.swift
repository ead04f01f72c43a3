/// Orders folded text the way people read it: runs of digits compare as numbers
/// ("Item 9" before "Item 10"), everything else by Unicode scalar value, so the order
/// never depends on the machine's locale.
enum NaturalOrder {
    /// Whether folded text `a` sorts before folded text `b`.
    static func precedes(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// Negative, zero or positive as `a` sorts before, with, or after `b`.
    static func compare(_ a: String, _ b: String) -> Int {
        var left = a.unicodeScalars.makeIterator()
        var right = b.unicodeScalars.makeIterator()
        var l = left.next()
        var r = right.next()
        while let x = l, let y = r {
            if x.properties.numericType == .decimal, y.properties.numericType == .decimal {
                // Compare whole digit runs as numbers: skip leading zeros, then the longer run is
                // larger, else the first differing digit decides.
                var xs: [Unicode.Scalar] = []
                var ys: [Unicode.Scalar] = []
                while let d = l, d.properties.numericType == .decimal { if !(xs.isEmpty && d == "0") { xs.append(d) }; l = left.next() }
                while let d = r, d.properties.numericType == .decimal { if !(ys.isEmpty && d == "0") { ys.append(d) }; r = right.next() }
                if xs.count != ys.count { return xs.count < ys.count ? -1 : 1 }
                for (dx, dy) in zip(xs, ys) where dx != dy { return dx.value < dy.value ? -1 : 1 }
                continue
            }
            if x != y { return x.value < y.value ? -1 : 1 }
            l = left.next()
            r = right.next()
        }
        if l == nil, r == nil { return 0 }
        return l == nil ? -1 : 1
    }
}
