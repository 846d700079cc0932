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
        /// An eventfd a `wake` or `stop` writes to, made by the first sleep that watches a
        /// descriptor (so that sleep, in poll(2), ends too); -1 until then.
        var wakeDescriptor: Int32 = -1

        mutating func signal() {
            guard wakeDescriptor >= 0 else { return }
            var one: UInt64 = 1
            _ = Glibc.write(wakeDescriptor, &one, 8)
        }
    }

    /// How a sleep that watched a descriptor ended.
    package enum WatchedSleep: Equatable, Sendable {
        case timedOut
        /// Woken or asked to stop.
        case woken
        /// The descriptor has something to read (or was hung up).
        case readable
        /// poll(2) failed, or no eventfd could be made (errno).
        case failed(Int32)
    }

    private let state = Guarded(State())

    package init() {}

    deinit {
        state.read { if $0.wakeDescriptor >= 0 { close($0.wakeDescriptor) } }
    }

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

    /// Waits `seconds` (`.infinity`: until woken) for `descriptor` to become readable, or less if
    /// woken or asked to stop.
    package func sleep(_ seconds: Double, watching descriptor: Int32) -> WatchedSleep {
        let wakeDescriptor = state.update { state -> Int32? in
            if state.stopRequested || state.wakeRequested {
                state.wakeRequested = false
                return nil
            }
            if state.wakeDescriptor < 0 { state.wakeDescriptor = orientd_make_wake_descriptor() }
            return state.wakeDescriptor
        }
        guard let wakeDescriptor else { return .woken }
        guard wakeDescriptor >= 0 else { return .failed(errno) }
        var watched = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        let milliseconds = seconds == .infinity ? -1 : Int32(min(max(seconds, 0) * 1000, Double(Int32.max)).rounded(.up))
        var result: Int32
        repeat { result = poll(&watched, 2, milliseconds) } while result < 0 && errno == EINTR
        if result < 0 { return .failed(errno) }
        var count: UInt64 = 0
        if watched[1].revents != 0 { _ = read(wakeDescriptor, &count, 8) }
        let woken = state.update { state -> Bool in
            defer { state.wakeRequested = false }
            return state.stopRequested || state.wakeRequested
        }
        if woken { return .woken }
        return watched[0].revents != 0 ? .readable : .timedOut
    }

    /// Ends the current or next `sleep` early.
    package func wake() {
        state.update {
            $0.wakeRequested = true
            $0.signal()
        }
    }

    /// Asks the thread to stop and waits until its body has returned (if it was ever started; a
    /// feed started in the background may not be yet when the daemon stops), at most `seconds`:
    /// a thread stuck in a call that does not return soon (libiio connecting to a board that is
    /// down waits 5 s) is left to end with the process. Returns whether it had stopped.
    @discardableResult
    package func stop(waitingAtMost seconds: Double = .infinity) -> Bool {
        state.update {
            $0.stopRequested = true
            $0.signal()
        }
        let deadline: Double? = seconds.isFinite ? MonotonicClock.now() + seconds : nil
        return state.wait(until: deadline, for: { !$0.started || $0.finished }) { _ in true } ?? false
    }
}

private final class ThreadWork {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
