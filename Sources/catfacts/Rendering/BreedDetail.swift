import CatFactsKit

/// One breed in full (`show`, Enter in live search): every field, an absent one said as
/// "(not given)" in a table.
enum BreedDetail {
    /// `breed` as a record, its name tagged with `source` when not live.
    static func record(_ breed: Breed, source: Source?) -> Record {
        Record(fields: Breed.Field.allCases.map { field in
            Record.Field(field.rawValue, label: BreedRows.header(field), value: breed[field],
                         source: field == .breed ? source : nil)
        })
    }

    /// `breed` in full: its JSON, its record, and the record for people.
    static func report(_ breed: Breed, source: Source?) -> Report {
        let record = record(breed, source: source)
        return Report(documents: [JSONDocument(breed)], data: .record(record), view: [.fields(record.fields)])
    }
}
