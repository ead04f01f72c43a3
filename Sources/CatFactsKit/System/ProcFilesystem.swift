#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether `/proc` is mounted, where the process depends on it.
///
/// On Linux, libdispatch (under Swift's concurrency, so under every call of the library, the
/// shell and the mock) samples its worker threads every second through `/proc/<tid>/stat`, and
/// stops the process (SIGILL, "registered worker exited prematurely") when it cannot open it:
/// in a chroot, a build sandbox or a container without `/proc`, a client crashes its host a
/// second or so into its first calls. So a client is refused at once, saying what is missing.
package enum ProcFilesystem {
    /// Why the process cannot run without `/proc`, or `nil` when it is there (or not needed:
    /// macOS).
    package static func missing() -> String? {
        #if os(Linux)
        guard access("/proc/self/stat", R_OK) != 0 else { return nil }
        return "/proc is not mounted: the Swift runtime's libdispatch reads /proc/self/task/*/stat and stops the "
            + "process without it; mount it (mount -t proc proc /proc), or bind-mount the host's into the chroot"
        #else
        return nil
        #endif
    }
}
