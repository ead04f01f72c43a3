@testable import CatFactsKit
import Testing

@Suite("The metrics recorder: what a snapshot reads stays as it was set")
struct MetricsRecorderTests {
    /// Each snapshot once wrapped the exporter's reader in two more thunks and stored it back
    /// (a closure held as a `Locked` value is reabstracted on every access):
    /// after 3,000 snapshots, reading it took 6,000 nested calls, more than a 256 kB stack holds.
    @Test func theExportReaderIsNotNestedDeeperBySnapshots() async {
        let recorder = MetricsRecorder()
        let state = ExportState(endpoint: nil, warnings: ["export is off: a test"])
        recorder.setExportState { state }
        for _ in 0..<3000 { #expect(recorder.snapshot().export == state) }
        let read: ExportState? = await withCheckedContinuation { continuation in
            let refused = DetachedThread.start(stackSize: 256 * 1024) {
                continuation.resume(returning: recorder.snapshot().export)
            }
            if refused != 0 { continuation.resume(returning: nil) }
        }
        #expect(read == state)
    }
}
