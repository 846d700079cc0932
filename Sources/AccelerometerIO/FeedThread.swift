import COrientdShim
import Foundation

/// A thread of its own for a sample feed, which can be asked to stop or woken, and whose waits
/// end at once when it is.
final class FeedThread: @unchecked Sendable {
    private let state = NSCondition()
    private var stopRequested = false
    private var wakeRequested = false
    private var started = false
    private var finished = false

    /// Runs `body` on a new thread named `name`.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        state.lock()
        started = true
        state.unlock()
        let thread = Thread { [self] in
            // Named from inside, for `top -H`, /proc and the tests: Foundation on Linux does not
            // pass a name given before start on to the kernel.
            _ = orientd_name_this_thread(name)
            body()
            state.lock()
            finished = true
            state.broadcast()
            state.unlock()
        }
        thread.start()
    }

    var shouldStop: Bool {
        state.lock()
        defer { state.unlock() }
        return stopRequested
    }

    /// Waits `seconds` (`.infinity`: until woken), or less if woken or asked to stop. Returns
    /// whether it was woken or asked to stop.
    @discardableResult
    func sleep(_ seconds: Double) -> Bool {
        state.lock()
        defer { state.unlock() }
        if seconds > 0, seconds.isFinite {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !stopRequested, !wakeRequested, state.wait(until: deadline) {}
        } else if seconds > 0 {
            while !stopRequested, !wakeRequested { state.wait() }
        }
        defer { wakeRequested = false }
        return stopRequested || wakeRequested
    }

    /// Ends the current or next `sleep` early.
    func wake() {
        state.lock()
        wakeRequested = true
        state.broadcast()
        state.unlock()
    }

    /// Asks the thread to stop and waits until its body has returned (if it was ever started; a
    /// feed started in the background may not be yet when the daemon stops).
    func stop() {
        state.lock()
        stopRequested = true
        state.broadcast()
        while started, !finished { state.wait() }
        state.unlock()
    }
}
