import Glibc

/// Seconds on the monotonic clock: orientctl's time for deadlines, retries and measuring, which
/// a change of the wall clock does not move.
package enum MonotonicClock {
    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
