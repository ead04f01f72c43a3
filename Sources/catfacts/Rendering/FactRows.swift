import CatFactsKit

/// Facts as rows: a fact is a sentence or three, too long to cut, so a table wraps it to
/// the width (under its number, when numbered).
enum FactRows {
    /// Numbered facts: `number` and `fact`.
    static func rows(_ numbered: [(number: Int, fact: Fact)]) -> Rows {
        Rows(columns: [Rows.Column("number", rightAligned: true, shrinks: false), Rows.Column("fact")],
             records: numbered.map { [String($0.number), $0.fact.text] })
    }

    /// One fact (`fact`): its JSON, a `fact` column, the text wrapped for people, with the
    /// source on a line of its own when not live.
    static func report(_ fact: Fact, source: Source?) -> Report {
        let rows = Rows(columns: [Rows.Column("fact")], records: [[fact.text]])
        return Report(documents: [JSONDocument(fact)], data: .rows(rows),
                      view: [.wrapped(rows)] + (source.map { [.sourceTag($0)] } ?? []))
    }
}
