/// The escape codes (ANSI, as every terminal emulator reads them) the shell moves the cursor
/// and erases with: the one place they are written. Colours and emphasis are ``Style``'s.
enum TerminalCodes {
    /// Hides the cursor while a screen redraws in place, so it does not flicker over the rows.
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor again.
    static let showCursor = "\u{1B}[?25h"
    /// Back to the start of the line, erasing the line.
    static let clearLine = "\r\u{1B}[2K"
    /// Back to the start of the line, erasing it and everything below it.
    static let clearBelow = "\r\u{1B}[J"

    /// Moves the cursor up `lines` lines (nothing for 0).
    static func up(_ lines: Int) -> String { lines > 0 ? "\u{1B}[\(lines)A" : "" }

    /// Moves the cursor right `columns` columns (nothing for 0).
    static func right(_ columns: Int) -> String { columns > 0 ? "\u{1B}[\(columns)C" : "" }
}
