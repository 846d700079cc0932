import Foundation

/// Seconds on the monotonic clock, the clock every arrival is stamped with.
public func monotonicNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Polls `condition` every `interval` seconds until it holds or `timeout` seconds pass.
@discardableResult
public func waitUntil(timeout: Double, every interval: Double = 0.01, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicNow() + timeout
    while monotonicNow() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return condition()
}

/// Waits until `somethingHappened` (asked every `interval` seconds: did anything happen since
/// you were last asked?) has said no for `quiet` seconds in a row, at most `timeout` seconds.
/// The quiet is timed from the last time it said yes, so a slow start cannot make it pass early.
@discardableResult
public func waitForQuiet(of quiet: Double, timeout: Double, every interval: Double = 0.05,
                         _ somethingHappened: () -> Bool) -> Bool {
    var quietSince = monotonicNow()
    return waitUntil(timeout: timeout, every: interval) {
        if somethingHappened() { quietSince = monotonicNow() }
        return monotonicNow() - quietSince >= quiet
    }
}
