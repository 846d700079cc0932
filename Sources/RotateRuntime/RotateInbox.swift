import DaemonThreads
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
package final class RotateInbox: Sendable {
    private let queue = Guarded<[RotateNews]>([])

    package init() {}

    package func post(_ news: RotateNews) {
        queue.update { $0.append(news) }
    }

    /// The next news, or nil when `deadline` (on `MonotonicClock`) passes first.
    package func next(until deadline: Double?) -> RotateNews? {
        queue.wait(until: deadline, for: { !$0.isEmpty }, then: { $0.removeFirst() })
    }
}
