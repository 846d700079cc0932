import Foundation
import Logging
import OrientationCore

/// Reads an accelerometer at a fixed rate on a thread of its own, because a libiio context must
/// stay on one thread: the source is opened, read, reopened and closed there.
///
/// With a `demand`, the sensor is read only while something needs it: when nothing does, the
/// poller delivers `.paused` and sleeps, reading nothing, until demand wakes it.
///
/// When reads fail with I/O errors (the device vanished, iiod went away) for `reopenAfter`
/// seconds, the source is closed and opened again, with a growing delay between attempts, so
/// the daemon resumes by itself when the sensor comes back.
public final class SensorPoller: SampleFeed, @unchecked Sendable {
    public static let reopenAfter = 2.0
    public static let longestReopenDelay = 10.0

    private let rate: Double
    private let open: () throws -> any AccelerometerSource
    private let onReading: @Sendable (Reading) -> Void
    private let logger: Logger
    private let demand: ReadingDemand?
    private let thread = FeedThread()

    /// - Parameters:
    ///   - rate: polls per second.
    ///   - open: makes the source; called on the poller's thread.
    ///   - demand: who needs readings; nil reads all the time.
    ///   - onReading: called on the poller's thread after every poll.
    public init(rate: Double, demand: ReadingDemand? = nil, logger: Logger, open: @escaping () throws -> any AccelerometerSource,
                onReading: @escaping @Sendable (Reading) -> Void) {
        self.rate = rate
        self.demand = demand
        self.logger = logger
        self.open = open
        self.onReading = onReading
    }

    /// Starts the thread, opens the source on it, takes the first reading (so the orientation is
    /// known when this returns) and returns what it opened, or the error that kept it from opening
    /// (the thread has then ended).
    public func start() async throws -> SensorInfo {
        demand?.onDemand { [thread] in thread.wake() }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SensorInfo, Error>) in
            thread.start(name: "orientd-sensor") { [self] in
                let source: any AccelerometerSource
                do {
                    source = try open()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                poll(source, announcing: { continuation.resume(returning: source.info) })
            }
        }
    }

    /// Asks the thread to stop and waits until it has closed the source.
    public func stop() { thread.stop() }

    private func poll(_ first: any AccelerometerSource, announcing announceStart: @escaping () -> Void) {
        var announceStart: (() -> Void)? = announceStart
        var source: (any AccelerometerSource)? = first
        var failingSince: Double?
        var reopen = (at: 0.0, delay: 1.0, lastError: "")
        let period = 1 / rate
        var deadline = MonotonicClock.now()
        while !thread.shouldStop {
            let time = MonotonicClock.now()
            if let current = source {
                do {
                    let acceleration = try current.readAcceleration()
                    failingSince = nil
                    onReading(.sample(AccelerometerSample(time: time, acceleration: acceleration)))
                } catch {
                    onReading(.failure(error, time: time))
                    if case .unreadable = error {
                        failingSince = failingSince ?? time
                        if time - failingSince! >= Self.reopenAfter {
                            logger.warning("closing the sensor after \(Self.reopenAfter) s of failed reads (\(error)); will reopen it")
                            source = nil
                            reopen = (at: time, delay: 1, lastError: "")
                        }
                    } else {
                        failingSince = nil
                    }
                }
            } else if time >= reopen.at {
                do {
                    let reopened = try open()
                    logger.notice("reopened the sensor: \(reopened.info.device) at \(reopened.info.uri)")
                    source = reopened
                    failingSince = nil
                } catch {
                    let text = "\(error)"
                    if text != reopen.lastError {
                        logger.warning("cannot reopen the sensor: \(text); retrying every \(Int(Self.longestReopenDelay)) s at most")
                    }
                    reopen = (at: time + reopen.delay, delay: min(reopen.delay * 2, Self.longestReopenDelay), lastError: text)
                    onReading(.failure(.unavailable(reason: text), time: time))
                }
            } else {
                onReading(.failure(.unavailable(reason: reopen.lastError), time: time))
            }
            announceStart?()
            announceStart = nil
            if let demand, demand.goIdleUnlessNeeded(at: MonotonicClock.now()) {
                logger.debug("no client needs the sensor: not reading it until one does")
                onReading(.paused(time: MonotonicClock.now()))
                thread.sleep(.infinity)
                demand.noteReading()
                logger.debug("a client needs the sensor: reading it again")
                deadline = MonotonicClock.now()
                continue
            }
            // Keep to the rate's grid; after a stall (suspend, slow read) start a new grid from now.
            deadline += period
            let now = MonotonicClock.now()
            if deadline < now { deadline = now }
            thread.sleep(deadline - now)
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
