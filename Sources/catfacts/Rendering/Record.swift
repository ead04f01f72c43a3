import CatFactsKit

/// One record of named fields (a breed in full): CSV prints a header row of the names and
/// a row of the values; plain a `name<TAB>value` line per field; a table a line per field,
/// its label in bold.
struct Record: Sendable {
    /// A field: its name as data, its label for people, its value.
    struct Field: Sendable {
        /// The name in CSV and plain (`country`).
        var name: String
        /// The label a table shows (`Country`); empty: the line goes on from the field before.
        var label: String
        /// The value; `nil` when absent (a table says "(not given)").
        var value: String?
        /// Where the value came from, when not live: a table tags the value with it.
        var source: Source?
        /// A table wraps the value to the width instead of cutting it (a warning, whose end
        /// names a file).
        var wraps = false

        /// A field named `name`, labelled `label` (default: `name`).
        init(_ name: String, label: String? = nil, value: String?, source: Source? = nil, wraps: Bool = false) {
            self.name = name
            self.label = label ?? name
            self.value = value
            self.source = source
            self.wraps = wraps
        }
    }

    var fields: [Field]
}
