import Glibc

/// A pthread mutex with a condition variable that times its waits on the monotonic clock, so a
/// change of the wall clock neither shortens nor stretches a sleep.
package final class MonotonicCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    package func broadcast() { pthread_cond_broadcast(condition) }

    /// The monotonic time `seconds` from now (nil: never, for an infinite or huge wait).
    static func deadline(after seconds: Double) -> timespec? {
        guard seconds.isFinite, seconds < 1e9 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int(now.tv_nsec) + Int((seconds - seconds.rounded(.down)) * 1e9)
        return timespec(tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000,
                        tv_nsec: nanoseconds % 1_000_000_000)
    }

    /// Waits, with the mutex held, until broadcast or the deadline (nil: no deadline); returns
    /// false once the deadline has passed.
    package func wait(until deadline: timespec?) -> Bool {
        guard var deadline else {
            pthread_cond_wait(condition, mutex)
            return true
        }
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }
}

/// Opens once: `wait` returns when `open` has been called, before or after.
package final class Latch: Sendable {
    private let isOpen = Guarded(false)

    package init() {}

    package func open() { isOpen.update { $0 = true } }

    package func wait() { _ = isOpen.wait(until: nil, for: { $0 }, then: { _ in }) }

    /// Waits until open, at most `seconds`; returns whether it opened.
    package func wait(atMost seconds: Double) -> Bool {
        isOpen.wait(until: MonotonicClock.now() + seconds, for: { $0 }, then: { _ in true }) ?? false
    }
}
