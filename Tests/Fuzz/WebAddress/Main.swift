import FuzzDriver

/// The target's entry: libFuzzer's driver, handed `fuzzOneInput`.
@main
enum Main {
    static func main() { runLibFuzzer(fuzzOneInput) }
}
