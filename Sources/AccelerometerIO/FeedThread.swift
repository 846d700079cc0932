import Foundation

/// A thread of its own for a sample feed, which can be asked to stop, and whose waits end at
/// once when it is.
final class FeedThread: @unchecked Sendable {
    private let wakeUp = DispatchSemaphore(value: 0)
    private let state = NSCondition()
    private var stopRequested = false
    private var finished = false

    /// Runs `body` on a new thread named `name`.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            body()
            state.lock()
            finished = true
            state.broadcast()
            state.unlock()
        }
        thread.name = name
        thread.start()
    }

    var shouldStop: Bool {
        state.lock()
        defer { state.unlock() }
        return stopRequested
    }

    /// Waits `seconds`, or less if asked to stop.
    func sleep(_ seconds: Double) {
        if seconds > 0 { _ = wakeUp.wait(timeout: .now() + seconds) }
    }

    /// Asks the thread to stop and waits until its body has returned.
    func stop() {
        state.lock()
        stopRequested = true
        state.unlock()
        wakeUp.signal()
        state.lock()
        while !finished { state.wait() }
        state.unlock()
    }
}
