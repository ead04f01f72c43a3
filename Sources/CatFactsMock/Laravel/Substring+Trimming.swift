extension Substring {
    /// Without leading and trailing spaces and tabs (what Laravel's `TrimStrings` removes
    /// from query values, and what separates `If-None-Match` tags).
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
