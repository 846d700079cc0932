import COrientdShim
import Glibc

/// A thread of its own for a sample feed, which can be asked to stop or woken, and whose waits
/// end at once when it is. Plain pthreads: the daemon does not link Foundation.
package final class FeedThread: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var stopRequested = false
    private var wakeRequested = false
    private var started = false
    private var finished = false

    package init() {}

    /// Runs `body` on a new thread named `name`. A thread that cannot be created (out of memory
    /// or the process's thread limit) is fatal: every feed is essential to the daemon.
    package func start(name: String, _ body: @escaping @Sendable () -> Void) {
        condition.locked { started = true }
        let work = Unmanaged.passRetained(ThreadWork { [self] in
            _ = orientd_name_this_thread(name)
            body()
            condition.locked {
                finished = true
                condition.broadcast()
            }
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

    package var shouldStop: Bool { condition.locked { stopRequested } }

    /// Waits `seconds` (`.infinity`: until woken), or less if woken or asked to stop. Returns
    /// whether it was woken or asked to stop.
    @discardableResult
    package func sleep(_ seconds: Double) -> Bool {
        condition.locked {
            if seconds > 0 {
                let deadline = MonotonicCondition.deadline(after: seconds)
                while !stopRequested, !wakeRequested, condition.wait(until: deadline) {}
            }
            defer { wakeRequested = false }
            return stopRequested || wakeRequested
        }
    }

    /// Ends the current or next `sleep` early.
    package func wake() {
        condition.locked {
            wakeRequested = true
            condition.broadcast()
        }
    }

    /// Asks the thread to stop and waits until its body has returned (if it was ever started; a
    /// feed started in the background may not be yet when the daemon stops).
    package func stop() {
        condition.locked {
            stopRequested = true
            condition.broadcast()
            while started, !finished { _ = condition.wait(until: nil) }
        }
    }
}

private final class ThreadWork {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
