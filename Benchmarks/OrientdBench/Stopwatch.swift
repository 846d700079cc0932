import Foundation
import ProcessHarness

/// Seconds on the monotonic clock: the one every time in the benchmark is read from, so a write
/// to the sensor and an event's arrival are compared on one clock.
func now() -> Double { monotonicNow() }

func sleep(seconds: Double) {
    if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
}

/// Polls `condition` every millisecond until it holds or `timeout` seconds pass.
@discardableResult
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = now() + timeout
    while now() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return condition()
}
