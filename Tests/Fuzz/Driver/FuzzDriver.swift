import CLibFuzzer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands a target's function to libFuzzer's driver, which reads libFuzzer's flags from the
/// command line and calls `testOneInput` for every input, and exits with the driver's status.
/// Each target's `main` calls it: SwiftPM gives every executable a `main` of its own (renamed,
/// for tests that link executables), so libFuzzer's `main` cannot be the one that runs.
public func runLibFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
