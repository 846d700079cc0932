import Glibc

/// Seconds on CLOCK_BOOTTIME: the one clock of orientd and orientctl for samples, deadlines,
/// retries and timeouts. It is monotonic, as CLOCK_MONOTONIC is (a change of the wall clock does
/// not move it), but it also counts the time the system was suspended: a safety read due during
/// a suspend is due at the resume, and the readings before and after a suspend are seen apart in
/// time, as they are. Waits are relative (`Guarded`, poll(2)), so their own clock does not matter.
public enum MonotonicClock {
    public static func now() -> Double {
        seconds(on: CLOCK_BOOTTIME)
    }

    /// Seconds the system has spent suspended since boot: CLOCK_BOOTTIME less CLOCK_MONOTONIC.
    /// When it grows between two looks, the system slept between them.
    public static func suspendedSeconds() -> Double {
        // BOOTTIME first: the difference can then only come out too small, never a false suspend.
        let boot = seconds(on: CLOCK_BOOTTIME)
        return boot - seconds(on: CLOCK_MONOTONIC)
    }

    private static func seconds(on clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
