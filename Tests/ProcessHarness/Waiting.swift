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
