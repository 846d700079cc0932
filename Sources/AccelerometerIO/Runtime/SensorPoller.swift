import DaemonThreads
import Glibc
import Logging
import OrientationCore
import Synchronization

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
///
/// With a `pace`, a still device is read at the still rate and a moving one at `rate`
/// (`SamplingPace`); `needsFullRate` says, right after a display reading was delivered, whether
/// whoever consumes the readings needs them at the full rate anyway (the classifier waits on a
/// decision, a client streams angles). Where the display accelerometer has a motion event
/// (`MotionWakeUp`), a still device is not read at all: the poller sleeps on the event
/// (`MotionEventWatch`) and reads it when it fires, when a client asks for a fresh reading, and
/// once every safety-read period.
///
/// Every decision is `SensorLoop`'s, a pure state machine; this class is the I/O around it.
public final class SensorPoller: SampleFeed, Sendable {
    public static let reopenAfter = SensorLoop.Settings.reopenAfter
    public static let longestReopenDelay = SensorLoop.Settings.longestReopenDelay

    public struct Heartbeat: Sendable {
        public let interval: Double
        public let beat: @Sendable () -> Void
        public init(interval: Double, beat: @escaping @Sendable () -> Void) {
            self.interval = interval
            self.beat = beat
        }
    }

    private let rate: Double
    private let pace: SamplingPace.Settings?
    private let needsFullRate: @Sendable () -> Bool
    private let open: @Sendable () throws -> [any AccelerometerSource]
    private let onReading: @Sendable (Reading) -> Void
    private let logger: Logger
    private let demand: ReadingDemand?
    private let heartbeat: Heartbeat?
    private let thread = FeedThread()
    private let hotplugEvents = Inbox<HotplugEvent>()
    private let reconfigurations = Inbox<Void>()
    private let resumes = Inbox<Void>()
    /// Whether either inbox may hold something: the loop looks in them only then (a generic
    /// call across modules at every read costs more than the read's own work).
    private let posted = Atomic<Bool>(false)

    /// - Parameters:
    ///   - rate: polls per second (while the device moves, with a `pace`).
    ///   - pace: when the still rate will do; nil polls at `rate` all the time.
    ///   - needsFullRate: called on the poller's thread after each display reading was delivered.
    ///   - open: makes the sources, the display accelerometer first; called on the poller's thread.
    ///   - demand: who needs readings; nil reads all the time.
    ///   - onReading: called on the poller's thread after every poll.
    public init(rate: Double, pace: SamplingPace.Settings? = nil, demand: ReadingDemand? = nil, heartbeat: Heartbeat? = nil,
                logger: Logger, open: @escaping @Sendable () throws -> [any AccelerometerSource],
                onReading: @escaping @Sendable (Reading) -> Void, needsFullRate: @escaping @Sendable () -> Bool = { false }) {
        self.rate = rate
        self.pace = pace
        self.needsFullRate = needsFullRate
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
    /// A second at most: a thread stuck in libiio (a board that does not answer) must not hold up
    /// orientd's exit; it ends with the process.
    public func stop() {
        if !thread.stop(waitingAtMost: 1) {
            logger.notice("the sensor thread is still waiting on its sensor (a board that does not answer); not waiting for it" )
        }
    }

    /// The configured device settings (read by `open`) changed: reopen to apply them. Called
    /// from any thread.
    public func reconfigure() {
        reconfigurations.post(())
        posted.store(true, ordering: .releasing)
        thread.wake()
    }

    /// The system resumed from a suspend (logind's `PrepareForSleep(false)`): read the sensor
    /// afresh. Called from any thread.
    public func systemResumed() {
        resumes.post(())
        posted.store(true, ordering: .releasing)
        thread.wake()
    }

    /// What udev says happened to an IIO device; called from any thread.
    public func hotplug(_ event: HotplugEvent) {
        switch event.subsystem {
        case "iio":
            break
        case "input" where event.action == .remove || Self.isInputAccelerometer(event.sysname):
            // Only accelerometers: a keyboard or a mouse plugged in must not reopen the sensor.
            break
        default:
            return
        }
        hotplugEvents.post(event)
        posted.store(true, ordering: .releasing)
        thread.wake()
    }

    private static func isInputAccelerometer(_ sysname: String) -> Bool {
        sysname.hasPrefix("event") && UdevProperties.value("ID_INPUT_ACCELEROMETER", subsystem: "input", sysname: sysname) == "1"
    }

    /// The thread's loop: does what `SensorLoop` decides, one action at a time, and tells it what
    /// came of each. Everything it opens stays on this thread.
    private func poll(announcing announceStart: @escaping (SensorInfo?) -> Void) {
        var loop = SensorLoop(settings: SensorLoop.Settings(period: 1 / rate, pace: pace, heartbeatInterval: heartbeat?.interval))
        var startAnnounced = false
        var sources: [any AccelerometerSource] = [] {
            didSet { capture = CaptureSchedule(for: sources) }
        }
        var capture = CaptureSchedule(for: [])
        // The watch's I/O; whether and when it is armed, waited on or dropped is the loop's.
        var watch: (any StillWatch)?
        var watching = false
        var suspends = SuspendNotice(suspendedSeconds: MonotonicClock.suspendedSeconds())

        while !thread.shouldStop {
            defer {
                // A client's request for a fresh reading wakes the poller while it sleeps on motion.
                if loop.isWatchingMotion != watching {
                    watching = loop.isWatchingMotion
                    demand?.watchMotion(watching)
                }
            }
            if posted.exchange(false, ordering: .acquiring) {
                for event in hotplugEvents.take() { loop.hotplug(event, at: MonotonicClock.now()) }
                if !reconfigurations.take().isEmpty { loop.reconfigure(at: MonotonicClock.now()) }
                if !resumes.take().isEmpty { loop.systemResumed(at: MonotonicClock.now()) }
            }
            // Without logind's word, a suspend shows when the clock that counts it runs ahead of
            // the one that does not (seen at the next wake-up: a safety read's at the latest).
            if suspends.resumed(suspendedSeconds: MonotonicClock.suspendedSeconds()) { loop.systemResumed(at: MonotonicClock.now()) }
            let now = MonotonicClock.now()
            switch loop.next(at: now) {
            case .beat:
                heartbeat?.beat()
            case .open:
                do {
                    let opened = try open()
                    guard let display = opened.first else { throw SensorReadError.unavailable(reason: "no accelerometer") }
                    let described: StillDeviceWatch
                    (watch, described) = stillWatch(of: display, settings: loop.settings)
                    if loop.opened(sysnames: opened.map(\.info.sysname), watch: watch?.traits, at: MonotonicClock.now()) {
                        logger.notice("opened the sensor: \(display.info.device) at \(display.info.uri)")
                    }
                    sources = opened
                    onReading(.opened(opened.map(\.info)))
                    onReading(.stillWatch(described))
                } catch {
                    loop.openFailed(reason: "\(error)", at: MonotonicClock.now())
                }
            case .openFailed(let reason, let announce, let log):
                if log {
                    logger.warning("\(reason); waiting for an accelerometer (udev reports new ones; retrying every \(Int(Self.longestReopenDelay)) s at most)")
                }
                if announce { onReading(.lost(reason: reason)) }
            case .read:
                let displayFailure = readEverySource(sources, capture: &capture, loop: &loop)
                loop.readFinished(displayFailure: displayFailure, at: MonotonicClock.now())
            case .checkDemand:
                loop.demand(needed: !(demand?.goIdleUnlessNeeded(at: now) ?? false), at: now)
            case .pause:
                watch?.close()
                capture.release(sources)
                for source in sources { source.goIdle() }
                logger.debug("no client needs the sensor: not reading it until one does")
                onReading(.paused(time: now))
            case .resume:
                demand?.noteReading()
                logger.debug("a client needs the sensor: reading it again")
            case .close(let cause, let announce):
                log(cause)
                watch = nil
                sources = []
                if announce { onReading(.lost(reason: Self.reason(cause))) }
            case .announceStart(let opened):
                announceStart(opened ? sources.first?.info : nil)
                startAnnounced = true
            case .sleep(let until):
                if thread.sleep(max(0.001, until - now)) { loop.woken() }
            case .releaseCapture:
                capture.release(sources)
            case .armMotionWatch:
                guard let armed = watch else { loop.motionWatchFailed(reason: "it was closed", at: now); continue }
                do {
                    try armed.arm()
                    loop.motionWatchArmed(at: MonotonicClock.now())
                    logger.debug("the device is still: reading nothing until \(armed.signal) \(armed.traits.releasesCapture ? "fires" : "come") (a safety read every \(formatDecimal(loop.settings.safetyReadPeriod ?? 0)) s)")
                } catch {
                    loop.motionWatchFailed(reason: "\(error)", at: now)
                }
            case .waitForMotion(let until):
                guard let watched = watch else { loop.motionWatchFailed(reason: "it was closed", at: now); continue }
                switch thread.sleep(max(0.001, until - now), watching: watched.descriptor) {
                case .timedOut:
                    break
                case .woken:
                    loop.woken()
                    if demand?.takeRequestWhileWatching() == true { loop.readingRequested(at: MonotonicClock.now()) }
                case .readable:
                    do {
                        if try watched.takeEvents() > 0 { loop.motionSeen(at: MonotonicClock.now()) }
                    } catch {
                        loop.motionWatchFailed(reason: "\(error)", at: now)
                    }
                case .failed(let error):
                    loop.motionWatchFailed(reason: "waiting on its descriptor failed (\(String(cString: strerror(error))))", at: now)
                }
            case .interruptWatch(let readRaw):
                if readRaw { capture.readRawNext(0) }
                do {
                    try watch?.interrupted()
                } catch {
                    loop.motionWatchFailed(reason: "\(error)", at: now)
                }
            case .watchEnded(let time, let byMotion):
                // A hub's silence while watched was asked for: not held against its buffer.
                if byMotion { capture.quiet(0, at: time) }
                onReading(.watchEnded(time: time, byMotion: byMotion))
            case .motionEventMissed:
                let device = sources.first?.info.device ?? "the accelerometer"
                logger.notice("\(device) moved unseen by \(watch?.signal ?? "its motion event") (the safety read saw it); if this happens again, orientd reads a still device instead of waiting on it")
            case .dropWatch(let drop):
                let device = sources.first?.info.device ?? "the accelerometer"
                let signal = watch?.signal ?? "its motion event"
                let reason: String
                switch drop {
                case .failed(let failure):
                    reason = "\(signal) failed: \(failure)"
                case .keepsMissing:
                    let cause = watch?.traits == .hubReports
                        ? "the hub seems not to honour its change sensitivity, or the turns were too slow for it"
                        : "its interrupt seems not to be wired (the firmware may give it no IRQ), or the turns were too slow for its threshold"
                    reason = "\(signal) missed the device's motion \(SensorLoop.missesBeforePolling) times: \(cause)"
                case .wakesWithoutMotion:
                    let cause = watch?.traits == .hubReports
                        ? "the hub seems not to honour its change sensitivity"
                        : "its threshold seems below the vibrations where the device lies"
                    reason = "\(signal) woke orientd \(SensorLoop.quietWakesBeforePolling) times in a row with the device still: \(cause)"
                }
                watch?.close()
                watch = nil
                var polled = readAtStillRate(loop.settings)
                logger.warning("\(device): \(reason); a still device is \(polled.sentence) instead until it is reopened")
                polled.reason = reason
                onReading(.stillWatch(polled))
            case .systemResumed:
                logger.info("the system resumed: reading the sensor afresh (it may have been turned while asleep)")
            case .paceChanged(.dormant):
                logger.debug("the device has been still for long: reading it \(formatDecimal(1 / loop.settings.dormantPeriod)) times a second until it moves")
            case .paceChanged(.still):
                logger.debug("the device is still: reading it \(formatDecimal(1 / loop.settings.stillPeriod)) times a second until it moves")
            case .paceChanged(.full):
                logger.debug("the device moves: reading it \(formatDecimal(rate)) times a second")
            }
        }
        // Stopped before the first attempt ended: whoever waits for the start is told there is none.
        if !startAnnounced { announceStart(nil) }
    }

    /// How the still display accelerometer will be watched: by its motion event where its driver
    /// has a usable one, else by its hub's change sensitivity where it is a HID sensor hub's (and
    /// the settings allow either), else by reading it at the still rate; described for `status`,
    /// and logged.
    private func stillWatch(of display: any AccelerometerSource, settings: SensorLoop.Settings) -> ((any StillWatch)?, StillDeviceWatch) {
        let info = display.info
        var polled = readAtStillRate(settings)
        guard let sysname = info.sysname else {
            polled.reason = "a remote sensor: its motion events are not reached"
            return (nil, polled)
        }
        let offer = MotionEvents.offer(sysname: sysname, triggers: (display as? IIOAccelerometer)?.triggers)
        switch offer.wakeUp {
        case .events(let files) where settings.safetyReadPeriod != nil:
            var described = StillDeviceWatch(method: .motionEvent, eventFiles: files, safetyReadSeconds: settings.safetyReadPeriod)
            let watch = MotionEventWatch(sysname: sysname, enableFiles: files)
            if let motion = pace?.motionThreshold,
               let (file, value) = offer.threshold(enable: files, acceleration: motion) {
                do {
                    try watch.setThreshold(file: file, value: value)
                    (described.thresholdFile, described.thresholdValue, described.motionThreshold) = (file, value, motion)
                } catch {
                    logger.notice("\(info.device): \(error); its driver's threshold stays, which may not notice a turn by hand")
                }
            }
            logger.info("\(info.device) signals motion itself: while the device is still, orientd reads nothing and sleeps on it: \(described.sentence)")
            return (watch, described)
        case .events(let files):
            polled.reason = "its motion event (events/\(files.joined(separator: ", "))) is not used: safety-read-seconds is 0 or still-rate is not below rate"
        case .polling(let reason):
            if settings.safetyReadPeriod != nil, let motion = pace?.motionThreshold,
               let hub = (display as? IIOAccelerometer)?.changeWatch(motionThreshold: motion) {
                var described = hub.description
                described.safetyReadSeconds = settings.safetyReadPeriod
                logger.info("\(info.device) is a sensor hub's: while the device is still, orientd sleeps on its buffer: \(described.sentence)")
                return (hub, described)
            }
            polled.reason = reason
        }
        logger.info("\(info.device): no motion event to sleep on: a still device is \(polled.sentence)")
        return (nil, polled)
    }

    /// How a still device is read without a watch: at the still rate, and the dormant rate once
    /// still for long (the reason is the caller's).
    private func readAtStillRate(_ settings: SensorLoop.Settings) -> StillDeviceWatch {
        var reading = StillDeviceWatch(method: .reading, readsPerSecond: 1 / settings.stillPeriod)
        if settings.dormantPeriod > settings.stillPeriod, let after = pace?.dormantAfterMs {
            (reading.dormantReadsPerSecond, reading.dormantAfterSeconds) = (1 / settings.dormantPeriod, after / 1000)
        }
        return reading
    }

    /// Reads (or takes what was captured from) every source and hands each sample or failure to
    /// the pipeline, and the display accelerometer's to the loop's pace; returns why the display
    /// accelerometer could not be read, if it could not. Only the display accelerometer's failing
    /// counts: a broken base sensor must not take the screen's rotation down with it.
    private func readEverySource(_ sources: [any AccelerometerSource], capture: inout CaptureSchedule,
                                 loop: inout SensorLoop) -> String? {
        var displayFailure: String?
        for (index, source) in sources.enumerated() {
            let time = MonotonicClock.now()
            if let captured = capture.samples(of: source, at: index, now: time, budget: 0.5 / rate, logger: logger) {
                for sample in captured { deliver(Self.reading(sample, from: source.info), display: index == 0, to: &loop) }
                continue
            }
            do {
                let raw = try source.readCalibrated()
                deliver(Self.reading(AccelerometerSample(time: time, raw: raw, mountMatrix: source.info.mountMatrix), from: source.info),
                        display: index == 0, to: &loop)
            } catch {
                deliver(.failure(error, time: time, device: source.info.id), display: index == 0, to: &loop)
                if case .unreadable = error, index == 0 { displayFailure = "\(error)" }
            }
        }
        return displayFailure
    }

    /// Hands a reading to the pipeline, then, for the display accelerometer, tells the pace what
    /// it read and whether the pipeline needs the full rate anyway.
    private func deliver(_ reading: Reading, display: Bool, to loop: inout SensorLoop) {
        onReading(reading)
        guard display, pace != nil else { return }
        switch reading {
        case .sample(let sample, _): loop.displaySample(sample.acceleration, at: sample.time, deciding: needsFullRate())
        case .failure(_, let time, _): loop.displayFailure(at: time)
        default: break
        }
    }

    private func log(_ cause: SensorLoop.CloseCause) {
        switch cause {
        case .removed(let sysname):
            logger.warning("the sensor \(sysname) was removed; waiting for an accelerometer to appear")
        case .udev(.add, let sysname):
            logger.notice("udev added \(sysname): reopening the accelerometers to include it")
        case .udev(let action, let sysname):
            logger.notice("udev \(action == .remove ? "removed" : "changed") \(sysname): reopening the accelerometers to read their mount matrices and locations again")
        case .failingReads(let error):
            logger.warning("closing the sensor after \(Self.reopenAfter) s of failed reads (\(error)); will reopen it")
        case .reconfigured:
            logger.notice("the [Device] settings changed: reopening the accelerometers to apply them")
        }
    }

    /// A sample, or a failed read when it cannot be a real acceleration (1e308 in a raw
    /// attribute): it is then logged and held like garbage, and never reaches a filter or a client.
    private static func reading(_ sample: AccelerometerSample, from info: SensorInfo) -> Reading {
        if let problem = PlausibleAcceleration.problem(with: sample.acceleration) {
            return .failure(.implausible(device: info.device, reason: problem), time: sample.time, device: info.id)
        }
        return .sample(sample, device: info.id)
    }

    private static func reason(_ cause: SensorLoop.CloseCause) -> String {
        switch cause {
        case .removed(let sysname): "\(sysname) was removed"
        case .udev(_, let sysname): "udev reported \(sysname)"
        case .failingReads(let error): error
        case .reconfigured: "its [Device] settings changed"
        }
    }
}

/// A udev event for an IIO device.
public struct HotplugEvent: Sendable, Equatable {
    public enum Action: String, Sendable { case add, remove, change }
    public let action: Action
    /// The kernel's device name, "iio:device0".
    public let sysname: String
    /// udev's subsystem: "iio", "hwmon".
    public let subsystem: String

    public init(action: Action, sysname: String, subsystem: String = "iio") {
        self.action = action
        self.sysname = sysname
        self.subsystem = subsystem
    }
}
