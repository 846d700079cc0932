import Foundation
import Logging
import OrientationCore

/// Reads the accelerometers of one libiio context (the display one, and a base one on a
/// convertible) at a fixed rate on a thread of its own, because a libiio context must stay on
/// one thread: the sources are opened, read, reopened and closed there, together.
///
/// With a `demand`, the sensor is read only while something needs it: when nothing does, the
/// poller delivers `.paused` and sleeps, reading nothing, until demand wakes it.
///
/// The sensor comes and goes. With none at start, the poller delivers `.lost` and waits for one.
/// When udev says the device was removed (`hotplug`), or reads fail with I/O errors (the device
/// vanished, iiod went away) for `reopenAfter` seconds, the source is closed (`.lost`) and opened
/// again with a growing delay between attempts, at once when udev says a device was added; udev's
/// `change` reopens it, so its mount matrix is read afresh (with no sensor open, a `change` is a
/// reason to try at once: a refused one may have been fixed). Every opening delivers `.opened`.
///
/// A `heartbeat` is called from the loop at least every `interval` seconds, asleep or not, so a
/// read that hangs stops it (systemd's watchdog then restarts the daemon).
public final class SensorPoller: SampleFeed, @unchecked Sendable {
    public static let reopenAfter = 2.0
    public static let longestReopenDelay = 10.0

    public struct Heartbeat: Sendable {
        public let interval: Double
        public let beat: @Sendable () -> Void
        public init(interval: Double, beat: @escaping @Sendable () -> Void) {
            self.interval = interval
            self.beat = beat
        }
    }

    private let rate: Double
    private let open: () throws -> [any AccelerometerSource]
    private let onReading: @Sendable (Reading) -> Void
    private let logger: Logger
    private let demand: ReadingDemand?
    private let heartbeat: Heartbeat?
    private let thread = FeedThread()
    private let inbox = NSLock()
    private var hotplugEvents: [HotplugEvent] = []

    /// - Parameters:
    ///   - rate: polls per second.
    ///   - open: makes the sources, the display accelerometer first; called on the poller's thread.
    ///   - demand: who needs readings; nil reads all the time.
    ///   - onReading: called on the poller's thread after every poll.
    public init(rate: Double, demand: ReadingDemand? = nil, heartbeat: Heartbeat? = nil, logger: Logger,
                open: @escaping () throws -> [any AccelerometerSource], onReading: @escaping @Sendable (Reading) -> Void) {
        self.rate = rate
        self.demand = demand
        self.heartbeat = heartbeat
        self.logger = logger
        self.open = open
        self.onReading = onReading
    }

    /// Starts the thread, tries to open the sources on it and takes the first reading (so the
    /// orientation is known when this returns); returns the display accelerometer it opened, or nil when it could not
    /// (the reason is logged; the poller goes on waiting for a sensor).
    public func start() async -> SensorInfo? {
        demand?.onDemand { [thread] in thread.wake() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<SensorInfo?, Never>) in
            thread.start(name: "orientd-sensor") { [self] in
                poll(announcing: { continuation.resume(returning: $0) })
            }
        }
    }

    /// Asks the thread to stop and waits until it has closed the source.
    public func stop() { thread.stop() }

    /// What udev says happened to an IIO device; called from any thread.
    public func hotplug(_ event: HotplugEvent) {
        inbox.lock()
        hotplugEvents.append(event)
        inbox.unlock()
        thread.wake()
    }

    private func takeHotplugEvents() -> [HotplugEvent] {
        inbox.lock()
        defer { inbox.unlock() }
        defer { hotplugEvents = [] }
        return hotplugEvents
    }

    private func poll(announcing announceStart: @escaping (SensorInfo?) -> Void) {
        var announceStart: ((SensorInfo?) -> Void)? = announceStart
        var sources: [any AccelerometerSource] = [] {
            didSet { capture = CaptureSchedule(for: sources) }
        }
        var capture = CaptureSchedule(for: [])
        var lostAnnounced = false
        var quietNextFailure = false
        var failingSince: Double?
        var reopen = (at: 0.0, delay: 1.0, lastError: "")
        var paused = false
        var lastBeat = -Double.infinity
        let period = 1 / rate
        var deadline = MonotonicClock.now()

        /// Closes the source. Its callers have logged why, so the first failed attempt to reopen
        /// it adds no second line about the same event.
        func close(because reason: String) {
            sources = []
            failingSince = nil
            reopen = (at: MonotonicClock.now(), delay: 1, lastError: "")
            quietNextFailure = true
            onReading(.lost(reason: reason))
            lostAnnounced = true
        }
        func beatIfDue() {
            guard let heartbeat, MonotonicClock.now() - lastBeat >= heartbeat.interval else { return }
            heartbeat.beat()
            lastBeat = MonotonicClock.now()
        }
        /// Sleeps `seconds` (or until woken), waking for each heartbeat when it is due.
        func sleep(_ seconds: Double) {
            let until = MonotonicClock.now() + seconds
            while true {
                beatIfDue()
                let now = MonotonicClock.now()
                let nextBeat = heartbeat.map { lastBeat + $0.interval - now } ?? .infinity
                guard until > now, !thread.sleep(max(0.001, min(until - now, nextBeat))) else { return }
            }
        }

        /// With no demand, tells the pipeline (once) and sleeps until woken; returns whether it slept.
        func idleUnlessNeeded() -> Bool {
            guard let demand, demand.goIdleUnlessNeeded(at: MonotonicClock.now()) else { return false }
            capture.release(sources)
            if !paused {
                logger.debug("no client needs the sensor: not reading it until one does")
                onReading(.paused(time: MonotonicClock.now()))
                paused = true
            }
            sleep(.infinity)
            return true
        }

        while !thread.shouldStop {
            beatIfDue()
            for event in takeHotplugEvents() {
                let ours = sources.contains { $0.info.sysname == event.sysname }
                switch event.action {
                case .remove where ours && sources.count == 1:
                    logger.warning("the sensor \(event.sysname) was removed; waiting for an accelerometer to appear")
                    close(because: "\(event.sysname) was removed")
                case .remove where ours, .change where ours:
                    logger.notice("udev \(event.action == .remove ? "removed" : "changed") \(event.sysname): reopening the accelerometers to read their mount matrices and locations again")
                    sources = []
                    reopen = (at: 0, delay: 1, lastError: "")
                case .change where sources.isEmpty:
                    // Perhaps a sensor refused for its calibration was fixed: try it now.
                    reopen.at = 0
                case .add:
                    // Perhaps the base accelerometer of a convertible: reopen to take it in.
                    if !sources.isEmpty { logger.notice("udev added \(event.sysname): reopening the accelerometers to include it") }
                    sources = []
                    reopen.at = 0
                default:
                    break
                }
            }

            guard let display = sources.first else {
                let time = MonotonicClock.now()
                if time >= reopen.at {
                    do {
                        let opened = try open()
                        guard let display = opened.first else { throw SensorReadError.unavailable(reason: "no accelerometer") }
                        if lostAnnounced { logger.notice("opened the sensor: \(display.info.device) at \(display.info.uri)") }
                        sources = opened
                        lostAnnounced = false
                        reopen = (at: 0, delay: 1, lastError: "")
                        onReading(.opened(opened.map(\.info)))
                        deadline = MonotonicClock.now()
                        continue
                    } catch {
                        let text = "\(error)"
                        if text != reopen.lastError, !quietNextFailure {
                            logger.warning("\(text); waiting for an accelerometer (udev reports new ones; retrying every \(Int(Self.longestReopenDelay)) s at most)")
                        }
                        if !lostAnnounced {
                            onReading(.lost(reason: text))
                            lostAnnounced = true
                        }
                        quietNextFailure = false
                        reopen = (at: time + reopen.delay, delay: min(reopen.delay * 2, Self.longestReopenDelay), lastError: text)
                    }
                }
                announceStart?(nil)
                announceStart = nil
                // Nothing to read until the next attempt, or until udev reports a device.
                sleep(max(0, reopen.at - MonotonicClock.now()))
                continue
            }

            // The first reading is taken whatever the demand, so the orientation is known at start.
            if announceStart == nil, idleUnlessNeeded() { continue }
            if paused {
                demand?.noteReading()
                logger.debug("a client needs the sensor: reading it again")
                paused = false
                deadline = MonotonicClock.now()
            }

            var unreadable: SensorReadError?
            for (index, source) in sources.enumerated() {
                let time = MonotonicClock.now()
                if let captured = capture.samples(of: source, at: index, now: time, budget: period / 2, logger: logger) {
                    for sample in captured { onReading(Self.reading(sample, from: source.info)) }
                    continue
                }
                do {
                    let acceleration = try source.readAcceleration()
                    onReading(Self.reading(AccelerometerSample(time: time, acceleration: acceleration), from: source.info))
                } catch {
                    onReading(.failure(error, time: time, device: source.info.id))
                    // Only the display accelerometer's failing closes them all: a broken base
                    // sensor must not take the screen's rotation down with it.
                    if case .unreadable = error, index == 0 { unreadable = error }
                }
            }
            if let error = unreadable {
                let time = MonotonicClock.now()
                failingSince = failingSince ?? time
                if time - failingSince! >= Self.reopenAfter {
                    logger.warning("closing the sensor after \(Self.reopenAfter) s of failed reads (\(error)); will reopen it")
                    close(because: "\(error)")
                }
            } else {
                failingSince = nil
            }
            announceStart?(display.info)
            announceStart = nil
            if idleUnlessNeeded() { continue }
            // Keep to the rate's grid; after a stall (suspend, slow read) start a new grid from now.
            deadline += period
            let now = MonotonicClock.now()
            if deadline < now { deadline = now }
            sleep(deadline - now)
        }
        // Stopped before the first attempt: whoever waits for the start is told there is none.
        announceStart?(nil)
    }

    /// A sample, or a failed read when it cannot be a real acceleration (1e308 in a raw
    /// attribute): it is then logged and held like garbage, and never reaches a filter or a client.
    private static func reading(_ sample: AccelerometerSample, from info: SensorInfo) -> Reading {
        if let problem = PlausibleAcceleration.problem(with: sample.acceleration) {
            return .failure(.implausible(device: info.device, reason: problem), time: sample.time, device: info.id)
        }
        return .sample(sample, device: info.id)
    }
}

/// A udev event for an IIO device.
public struct HotplugEvent: Sendable, Equatable {
    public enum Action: String, Sendable { case add, remove, change }
    public let action: Action
    /// The kernel's device name, "iio:device0".
    public let sysname: String

    public init(action: Action, sysname: String) {
        self.action = action
        self.sysname = sysname
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
