import CDaemonThreads
import Glibc

/// A thread of its own for a sample feed, which can be asked to stop or woken, and whose waits
/// end at once when it is. Plain pthreads: the daemon does not link Foundation.
package final class FeedThread: Sendable {
    private struct State {
        var stopRequested = false
        var wakeRequested = false
        var started = false
        var finished = false
    }

    private let state = Guarded(State())

    package init() {}

    /// Runs `body` on a new thread named `name`. A thread that cannot be created (out of memory
    /// or the process's thread limit) is fatal: every feed is essential to the daemon.
    package func start(name: String, _ body: @escaping @Sendable () -> Void) {
        state.update { $0.started = true }
        let work = Unmanaged.passRetained(ThreadWork { [self] in
            _ = orientd_name_this_thread(name)
            body()
            state.update { $0.finished = true }
        })
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let work = Unmanaged<ThreadWork>.fromOpaque(context!).takeRetainedValue()
            work.body()
            return nil
        }, work.toOpaque())
        guard created == 0 else {
            fatalError("cannot start thread \(name): \(String(cString: strerror(created)))")
        }
        pthread_detach(thread)
    }

    package var shouldStop: Bool { state.read { $0.stopRequested } }

    /// Waits `seconds` (`.infinity`: until woken), or less if woken or asked to stop. Returns
    /// whether it was woken or asked to stop.
    @discardableResult
    package func sleep(_ seconds: Double) -> Bool {
        // .infinity waits until woken; a negative or NaN time does not wait at all.
        let deadline: Double? = seconds == .infinity ? nil : MonotonicClock.now() + (seconds > 0 ? seconds : 0)
        return state.wait(until: deadline, for: { $0.stopRequested || $0.wakeRequested }) { state in
            state.wakeRequested = false
            return true
        } ?? false
    }

    /// Ends the current or next `sleep` early.
    package func wake() {
        state.update { $0.wakeRequested = true }
    }

    /// Asks the thread to stop and waits until its body has returned (if it was ever started; a
    /// feed started in the background may not be yet when the daemon stops), at most `seconds`:
    /// a thread stuck in a call that does not return soon (libiio connecting to a board that is
    /// down waits 5 s) is left to end with the process. Returns whether it had stopped.
    @discardableResult
    package func stop(waitingAtMost seconds: Double = .infinity) -> Bool {
        state.update { $0.stopRequested = true }
        let deadline: Double? = seconds.isFinite ? MonotonicClock.now() + seconds : nil
        return state.wait(until: deadline, for: { !$0.started || $0.finished }) { _ in true } ?? false
    }
}

private final class ThreadWork {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
