#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The time spans carry: nanoseconds since the Unix epoch (OTLP's `*TimeUnixNano`).
enum WallClock {
    static func nanos() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(max(0, now.tv_sec)) * 1_000_000_000 + UInt64(max(0, now.tv_nsec))
    }
}
