import CLibFuzzer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands this target's function to libFuzzer's driver. SwiftPM gives every executable a
/// `main` of its own (renamed, for tests that link executables), so libFuzzer's `main`
/// cannot be the one that runs.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
    }
}
