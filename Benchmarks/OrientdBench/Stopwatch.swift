import Foundation
import ProcessHarness

/// Seconds on the monotonic clock: the one every time in the benchmark is read from, so a write
/// to the sensor and an event's arrival are compared on one clock.
func now() -> Double { monotonicNow() }

func sleep(seconds: Double) {
    if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
}
