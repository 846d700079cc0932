import OrientationCore
import ProcessHarness

/// A daemon as its client sees it: every orientation it reported, each stamped on arrival.
protocol DaemonUnderTest: AnyObject {
    var name: String { get }
    var reports: [(orientation: Orientation, time: Double)] { get }
    /// The process whose CPU time and memory are measured.
    var daemonProcess: ChildProcess { get }
}

extension DaemonUnderTest {
    var latest: Orientation { reports.last?.orientation ?? .unknown }

    /// Waits for a report after the first `count` that says `orientation`; returns its time.
    func waitForReport(of orientation: Orientation, after count: Int, timeout: Double) -> Double? {
        var found: Double?
        waitUntil(timeout: timeout) {
            found = reports.dropFirst(count).first { $0.orientation == orientation }?.time
            return found != nil
        }
        return found
    }
}
