import Foundation
import OrientationCore

/// Reads an accelerometer at a fixed rate on a thread of its own, because a libiio context must
/// stay on one thread: the source is opened, read and closed there.
public final class SensorPoller: @unchecked Sendable {
    /// One poll's outcome: a sample, or the reason none could be taken, with its monotonic time.
    public enum Reading: Sendable {
        case sample(AccelerometerSample)
        case failure(SensorReadError, time: Double)
    }

    private let rate: Double
    private let open: () throws -> any AccelerometerSource
    private let onReading: @Sendable (Reading) -> Void
    private let wakeUp = DispatchSemaphore(value: 0)
    private let stopped = NSCondition()
    private var stopRequested = false
    private var finished = false

    /// - Parameters:
    ///   - rate: polls per second.
    ///   - open: makes the source; called on the poller's thread.
    ///   - onReading: called on the poller's thread after every poll.
    public init(rate: Double, open: @escaping () throws -> any AccelerometerSource, onReading: @escaping @Sendable (Reading) -> Void) {
        self.rate = rate
        self.open = open
        self.onReading = onReading
    }

    /// Starts the thread, opens the source on it and returns what it opened, or the error that
    /// kept it from opening (the thread has then ended).
    public func start() async throws -> SensorInfo {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SensorInfo, Error>) in
            let thread = Thread { [self] in
                defer { markFinished() }
                let source: any AccelerometerSource
                do {
                    source = try open()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                continuation.resume(returning: source.info)
                poll(source)
            }
            thread.name = "orientd-sensor"
            thread.start()
        }
    }

    /// Asks the thread to stop and waits until it has closed the source.
    public func stop() {
        stopped.lock()
        stopRequested = true
        stopped.unlock()
        wakeUp.signal()
        stopped.lock()
        while !finished { stopped.wait() }
        stopped.unlock()
    }

    private var shouldStop: Bool {
        stopped.lock()
        defer { stopped.unlock() }
        return stopRequested
    }

    private func markFinished() {
        stopped.lock()
        finished = true
        stopped.broadcast()
        stopped.unlock()
    }

    private func poll(_ source: any AccelerometerSource) {
        let period = 1 / rate
        var deadline = MonotonicClock.now()
        while !shouldStop {
            let time = MonotonicClock.now()
            do {
                let acceleration = try source.readAcceleration()
                onReading(.sample(AccelerometerSample(time: time, acceleration: acceleration)))
            } catch {
                onReading(.failure(error, time: time))
            }
            // Keep to the rate's grid; after a stall (suspend, slow read) start a new grid from now.
            deadline += period
            let now = MonotonicClock.now()
            if deadline < now { deadline = now }
            _ = wakeUp.wait(timeout: .now() + (deadline - now))
        }
    }
}

/// Seconds on CLOCK_MONOTONIC: the time base of every sample.
public enum MonotonicClock {
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
