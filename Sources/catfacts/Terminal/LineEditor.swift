import CatFactsKit
import CReadline
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The line entered, handed from readline's callback to ``LineEditor/read(restoring:)``.
private enum Entered: Sendable {
    case line(String)
    case endOfInput
}

/// What readline's C callbacks need, set while a line is being read (on the main thread).
private let entered = Locked<Entered?>(nil)
private let completer = Locked<TabCompleter?>(nil)
private let matches = Locked<(list: [String], next: Int)>(([], 0))
/// The line Ctrl-S set aside to enter live search, until ``LineEditor/read(restoring:)`` takes it.
private let liveSearchAsked = Locked<String?>(nil)

/// What the prompt gave.
enum EditorInput: Equatable {
    /// A line entered.
    case line(String)
    /// Ctrl-S: live search, the line typed so far set aside (to restore with
    /// ``LineEditor/read(restoring:)`` when live search is left).
    case liveSearch(aside: String)
    /// Ctrl-D on an empty line.
    case endOfInput
}

/// Line editing with GNU readline: the prompt, Emacs/vi keys, history, Tab completion.
///
/// It uses readline's callback interface, so that the main thread can wait on the terminal
/// and on the signal pipe at once: Ctrl-C at the prompt clears the line in place, without readline's own signal handling, and a resize re-fits the line being edited.
final class LineEditor {
    let prompt: String
    private let history: HistoryFile?
    /// The terminal's settings before the shell changed them, restored by ``close()``.
    private let savedTerminal: termios?

    /// An editor completing with `tabCompleter` and keeping history in `historyPath`
    /// (none when `nil` or when the file cannot be made).
    init(prompt: String, historyPath: String?, tabCompleter: TabCompleter) {
        self.prompt = prompt
        // readline edits multibyte (UTF-8) text only in a locale that says so.
        setlocale(LC_CTYPE, "")
        history = historyPath.flatMap { HistoryFile(path: $0) }
        completer.withLock { $0 = tabCompleter }
        catfacts_rl_setup("catfacts", complete)
        rl_bind_key(Self.liveSearchKey, liveSearchKeyPressed)
        // Ctrl-C must not flush typed-ahead input: readline, woken by poll(2) for a key the
        // flush then took away, would block in read(2) and miss the Ctrl-C until the next key.
        var settings = termios()
        if tcgetattr(STDIN_FILENO, &settings) == 0 {
            savedTerminal = settings
            settings.c_lflag |= tcflag_t(NOFLSH)
            // Ctrl-S is the live search key, not XOFF: with flow control on, the terminal
            // driver would take it (and freeze the output) before readline saw it.
            settings.c_iflag &= ~tcflag_t(IXON)
            tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        } else {
            savedTerminal = nil
        }
    }

    /// Gives the terminal back as it was.
    func close() {
        if var settings = savedTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &settings) }
    }

    /// The key that enters live search at the prompt: Ctrl-S.
    static let liveSearchKey: Int32 = 0x13

    /// Reads one line, starting from `text` (a line set aside by Ctrl-S) when given.
    func read(restoring text: String? = nil) -> EditorInput {
        entered.withLock { $0 = nil }
        liveSearchAsked.withLock { $0 = nil }
        rl_callback_handler_install(prompt, lineEntered)
        if let text { catfacts_rl_restore_line(text) }
        while true {
            let events = SignalPipe.wait(orReadable: STDIN_FILENO)
            if events.isEmpty {
                rl_callback_read_char()
                switch entered.withLock({ $0.take() }) {
                case .line(let line)?:
                    if let aside = liveSearchAsked.withLock({ $0.take() }) {
                        // Live search draws under the prompt line, which stays as typed.
                        Descriptor.writeAll("\r\n", to: STDOUT_FILENO)
                        return .liveSearch(aside: aside)
                    }
                    return .line(line)
                case .endOfInput?:
                    Descriptor.writeAll("\n", to: STDOUT_FILENO)
                    return .endOfInput
                case nil: continue
                }
            }
            for event in events {
                switch event {
                case .interrupt:
                    // The line is emptied where it stands and redrawn as a bare prompt (readline
                    // clears the rows a long line took): no "^C" drawn over it, no new line.
                    catfacts_rl_abandon_line()
                    rl_set_prompt(prompt)
                    rl_redisplay()
                case .resize:
                    ResizeSignal.note()
                    rl_resize_terminal()
                case .commandDone:
                    break
                }
            }
        }
    }

    /// Adds a line to the history (and its file).
    func remember(_ line: String) {
        if let history {
            history.add(line)
        } else {
            add_history(line)
        }
    }
}

/// readline's line handler: keeps the line and removes itself, so readline does not print
/// the next prompt before the command's output.
private func lineEntered(_ line: UnsafeMutablePointer<CChar>?) {
    if let line {
        entered.withLock { $0 = .line(String(cString: line)) }
        free(line)
    } else {
        entered.withLock { $0 = .endOfInput }
    }
    rl_callback_handler_remove()
}

/// readline's command for Ctrl-S: sets the line aside and ends it, so that
/// ``LineEditor/read(restoring:)`` returns `.liveSearch`.
private func liveSearchKeyPressed(_ count: Int32, _ key: Int32) -> Int32 {
    let line = catfacts_rl_line().map { String(cString: $0) } ?? ""
    liveSearchAsked.withLock { $0 = line }
    catfacts_rl_finish_line()
    return 0
}

/// readline's attempted-completion function: the ``TabCompleter``'s candidates for the
/// word between `start` and `end` (byte offsets in the line), never file names.
private func complete(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    catfacts_rl_completion_over()
    guard let text, let buffer = catfacts_rl_line() else { return nil }
    let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                          count: Int(strlen(buffer))))
    let start = min(max(0, Int(start)), bytes.count)
    let end = min(max(start, Int(end)), bytes.count)
    let before = String(decoding: bytes[..<start], as: UTF8.self)
    let word = String(decoding: bytes[start..<end], as: UTF8.self)
    let found = completer.withLock { $0?.candidates(before: before, word: word) } ?? []
    guard !found.isEmpty else { return nil }
    matches.withLock { $0 = (found, 0) }
    return rl_completion_matches(text, nextMatch)
}

/// readline's match generator: hands out the candidates one by one, each a new C string
/// readline frees.
private func nextMatch(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    matches.withLock { matches in
        if state == 0 { matches.next = 0 }
        guard matches.next < matches.list.count else { return nil }
        defer { matches.next += 1 }
        return strdup(matches.list[matches.next])
    }
}
