import DaemonThreads
import Foundation
import ScreenRotation

/// What the threads of `orientctl rotate` tell its main loop, in the order they happen.
package enum RotateNews: Sendable {
    case rotator(ScreenRotator.Event)
    /// sway says its outputs changed: ask what the panel shows.
    case outputsChanged
    /// orientd refused the subscription: trying again would not help.
    case fatal(String)
}

/// A queue of news that the main loop waits on, up to a deadline.
package final class RotateInbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [RotateNews] = []

    package init() {}

    package func post(_ news: RotateNews) {
        condition.lock()
        queue.append(news)
        condition.signal()
        condition.unlock()
    }

    /// The next news, or nil when `deadline` (on `MonotonicClock`) passes first.
    package func next(until deadline: Double?) -> RotateNews? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty {
            guard let deadline else {
                condition.wait()
                continue
            }
            let remaining = deadline - MonotonicClock.now()
            if remaining <= 0 { return nil }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining))
        }
        return queue.removeFirst()
    }
}
