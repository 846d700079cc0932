import DaemonThreads
import Glibc
import Logging
import OrientationCore

/// Finds and reads the ambient light and proximity sensors and the compass of one libiio context
/// on a thread of its own (a libiio context stays on one thread), the way iio-sensor-proxy's
/// iio-poll-als, iio-poll-proximity and iio-buffer-compass drivers do (the compass's heading is
/// polled from sysfs, not from a buffer), and reports what it learns to the function `start` is given.
///
/// The sensors are found at `start` whatever the demand, so their presence is known before anyone
/// asks for them, and again when udev adds or changes an IIO device (`hotplug`). Each is read only
/// while its demand holds (`lightDemand`, `proximityDemand`, `compassDemand`): at once when the
/// demand appears, then every interval (the light sensor's integration time or 0.8 s; 0.7 s for
/// proximity and the compass). With none needed the thread sleeps until woken, and reads nothing.
///
/// Every decision is `AmbientLoop`'s, a pure state machine; this class is the I/O around it.
public final class AmbientSensorPoller: Sendable {
    public let lightDemand: ReadingDemand
    public let proximityDemand: ReadingDemand
    public let compassDemand: ReadingDemand

    private let uri: String
    private let logger: Logger
    private let thread = FeedThread()
    private let hotplugEvents = Inbox<HotplugEvent>()

    /// - Parameters:
    ///   - uri: the libiio context ("local:", "ip:host").
    ///   - keepReadingAfterRequest: seconds each sensor is still read after the last client let go.
    public init(uri: String, keepReadingAfterRequest: Double = 5, logger: Logger) {
        lightDemand = ReadingDemand(keepReadingAfterRequest: keepReadingAfterRequest)
        proximityDemand = ReadingDemand(keepReadingAfterRequest: keepReadingAfterRequest)
        compassDemand = ReadingDemand(keepReadingAfterRequest: keepReadingAfterRequest)
        self.uri = uri
        self.logger = logger
    }

    /// Starts the thread, which first finds the sensors and reads them, reporting to `report`
    /// (called on the poller's thread); `waitForDiscovery` waits for that.
    public func start(reporting report: @escaping @Sendable (AmbientEvent) -> Void) {
        lightDemand.onDemand { [thread] in thread.wake() }
        proximityDemand.onDemand { [thread] in thread.wake() }
        compassDemand.onDemand { [thread] in thread.wake() }
        thread.start(name: "orientd-ambient") { [self] in
            run(reporting: report, announcing: { discovered.open() })
        }
    }

    /// Waits until the first discovery and the first reads are over, at most `seconds` (a board
    /// slow to answer); returns whether they are. The thread goes on and reports when it can.
    public func waitForDiscovery(atMost seconds: Double) -> Bool {
        discovered.wait(atMost: seconds)
    }

    /// Asks the thread to stop and waits until it has.
    /// A second at most: a thread stuck in libiio (a board that does not answer) must not hold up
    /// orientd's exit; it ends with the process.
    public func stop() {
        if !thread.stop(waitingAtMost: 1) {
            logger.notice("the ambient sensors thread is still waiting on its sensor (a board that does not answer); not waiting for it" )
        }
    }

    /// Opened once the first discovery is over.
    private let discovered = Latch()

    /// What udev says happened to an IIO device; called from any thread.
    public func hotplug(_ event: HotplugEvent) {
        hotplugEvents.post(event)
        thread.wake()
    }

    /// The thread's loop: does what `AmbientLoop` decides, one action at a time, and tells it what
    /// came of each. The context and the sensors in it stay on this thread.
    private func run(reporting report: (AmbientEvent) -> Void, announcing announceStart: () -> Void) {
        var loop = AmbientLoop()
        var found = AmbientDiscovery.Result()
        var startAnnounced = false
        while !thread.shouldStop {
            for event in hotplugEvents.take() { loop.hotplug(event, at: MonotonicClock.now()) }
            let now = MonotonicClock.now()
            switch loop.next(at: now) {
            case .discover:
                found = discover()
                loop.discovered(light: found.light?.found, proximity: found.proximity?.found, compass: found.compass?.found,
                                refusals: found.refusals, at: MonotonicClock.now())
            case .checkDemand:
                loop.demand(light: isNeeded(lightDemand, at: now), proximity: isNeeded(proximityDemand, at: now),
                            compass: isNeeded(compassDemand, at: now), at: now)
            case .read(.light):
                loop.readFinished(.light, found.light?.read() ?? .failed(reason: "no light sensor", gone: true), at: MonotonicClock.now())
            case .read(.proximity):
                loop.readFinished(.proximity, found.proximity?.read() ?? .failed(reason: "no proximity sensor", gone: true), at: MonotonicClock.now())
            case .read(.compass):
                loop.readFinished(.compass, found.compass?.read() ?? .failed(reason: "no compass", gone: true), at: MonotonicClock.now())
            case .report(let event):
                log(event, found: found)
                report(event)
            case .warn(let line):
                logger.warning("\(line)")
            case .announceStart:
                announceStart()
                startAnnounced = true
            case .sleep(let until):
                if thread.sleep(max(0.001, until - now)) { loop.woken() }
            }
        }
        // Stopped before the first discovery ended: whoever waits for the start may go on.
        if !startAnnounced { announceStart() }
    }

    /// Opens a fresh context (its device list is fixed when it opens) and finds the sensors in it.
    private func discover() -> AmbientDiscovery.Result {
        do {
            return AmbientDiscovery.discover(in: try IIOContext(uri: uri))
        } catch {
            // No IIO devices at all is a machine without IIO ambient sensors, not a fault; an
            // hwmon light sensor is not IIO.
            logger.debug("no IIO ambient sensors: \(error)")
            var result = AmbientDiscovery.Result()
            if uri.hasPrefix("local:") { result.addLocalNonIIOSensors() }
            return result
        }
    }

    private func isNeeded(_ demand: ReadingDemand, at time: Double) -> Bool {
        if demand.goIdleUnlessNeeded(at: time) { return false }
        demand.noteReading()
        return true
    }

    /// How a calibrated channel is read, for the log: "reading FILE + OFFSET × SCALE UNIT every N s while WHEN".
    static func reading(_ file: String, offset: Double, scale: Double, unit: String, every interval: Double, while when: String) -> String {
        "reading \(file)" + (offset != 0 ? " + \(formatDecimal(offset))" : "")
            + " × \(formatDecimal(scale)) \(unit) every \(formatDecimal(interval)) s while \(when)"
    }

    private func log(_ event: AmbientEvent, found: AmbientDiscovery.Result) {
        switch event {
        case .lightAppeared(let device):
            let how = found.light?.howRead ?? ""
            logger.notice("found the ambient light sensor \(device): \(how)")
        case .proximityAppeared(let device):
            let how = found.proximity?.howRead ?? ""
            logger.notice("found the proximity sensor \(device): \(how)")
        case .lightGone(let reason):
            logger.warning("the ambient light sensor is gone: \(reason)")
        case .proximityGone(let reason):
            logger.warning("the proximity sensor is gone: \(reason)")
        case .lightLevel(let level, let unit):
            logger.debug("light level \(formatDecimal(level)) \(unit == .lux ? "lux" : "% (vendor)")")
        case .proximity(let near):
            logger.debug("proximity: \(near ? "near" : "far")")
        case .compassAppeared(let device):
            let how = found.compass.map { sensor in
                Self.reading(CompassChannel.file, offset: sensor.calibration.offset, scale: sensor.calibration.scale,
                             unit: "degrees", every: CompassChannel.interval, while: "claimed")
            } ?? ""
            logger.notice("found the compass \(device): \(how)")
        case .compassGone(let reason):
            logger.warning("the compass is gone: \(reason)")
        case .compassHeading(let degrees):
            logger.debug("compass heading \(formatDecimal(degrees))°")
        }
    }
}
