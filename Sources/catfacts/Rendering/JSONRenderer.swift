/// JSON Lines (`set output json`, `--json`): the report's documents, one a line; its lines
/// when it has none (`metrics --prom` prints the same text in every mode).
struct JSONRenderer: Renderer {
    func render(_ report: Report) -> Rendition {
        .lines(report.documents.isEmpty ? report.lines : report.documents.map(\.text))
    }
}
