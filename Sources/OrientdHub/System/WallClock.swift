import Glibc

/// Seconds since 1970 (the protocol's timestamps), from the real-time clock.
public enum WallClock {
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
