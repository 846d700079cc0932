import Glibc

/// Seconds on CLOCK_MONOTONIC: the one clock of orientd and orientctl for samples, deadlines,
/// retries and timeouts, which a change of the wall clock does not move.
public enum MonotonicClock {
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
