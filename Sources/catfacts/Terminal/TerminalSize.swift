#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's size in character cells, measured for every render so the next listing
/// fits a terminal resized meanwhile (SIGWINCH only tells the views already on screen to
/// redraw, see ``ResizeSignal``).
struct TerminalSize: Sendable, Equatable {
    var columns: Int
    var rows: Int

    /// The size of the terminal behind `descriptor` (`TIOCGWINSZ`), else `$COLUMNS` and
    /// `$LINES`, else 80 × 24.
    static func current(of descriptor: Int32 = STDOUT_FILENO, environment: [String: String]) -> TerminalSize {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return TerminalSize(columns: Int(size.ws_col), rows: max(Int(size.ws_row), 3))
        }
        let columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 80
        let rows = environment["LINES"].flatMap { Int($0) }.flatMap { $0 > 2 ? $0 : nil } ?? 24
        return TerminalSize(columns: columns, rows: rows)
    }
}
