import Synchronization
import DaemonThreads
import AccelerometerIO
import Logging
import OrientationCore
import OrientdHub
import OrientdProtocol

/// Sensor readings → classifier → hub, on the sensor thread: the I/O around `ReadingPipeline`,
/// which decides what each reading means; this tells the hub and the log. Orientation changes
/// come from the display accelerometer, angle samples while someone wants them, and on a
/// convertible the hinge angle and tablet mode from the display and base accelerometers together.
///
/// Its state is confined to its feed's thread (every reading comes from there; checked in debug
/// builds), so it needs no lock; the one thing that comes from elsewhere, new classifier settings,
/// waits in a mailbox for the next reading.
final class OrientationPipeline: Sendable {
    private let state: ThreadConfined<ReadingPipeline>
    private let newSettings = Mutex<ClassifierSettings?>(nil)
    private let hub: OrientationHub
    private let logger: Logger
    /// Polls per second while the device moves, and while it is still (nil: `rate` always), for
    /// the sensor's status.
    private let rate: Double
    private let stillRate: Double?
    /// Whether the samples carry a trace's own times (`--replay`): changes are logged with them.
    private let replaying = Mutex(false)
    /// How old a reading may be for the hub to answer with it, for given classifier settings.
    private let staleAfter: @Sendable (ClassifierSettings) -> Double

    init(hub: OrientationHub, settings: ClassifierSettings = ClassifierSettings(), rate: Double, stillRate: Double? = nil,
         staleAfter: @escaping @Sendable (ClassifierSettings) -> Double, logger: Logger) {
        state = ThreadConfined(ReadingPipeline(settings: settings))
        self.hub = hub
        self.rate = rate
        self.stillRate = stillRate
        self.staleAfter = staleAfter
        self.logger = logger
        hub.setStaleAfter(staleAfter(settings))
    }

    /// New classifier constants from a reloaded config, from any thread: taken before the next
    /// reading; the orientation decided so far stands.
    func adopt(_ settings: ClassifierSettings) {
        newSettings.withLock { $0 = settings }
    }

    /// Whether the readings are needed at the full rate: the classifier waits on a decision, or
    /// a client streams angles (a still device would otherwise thin its stream to the still
    /// rate); asked on the feed's thread right after a reading was handled.
    @Sendable func needsFullRate() -> Bool { state.withValue { $0.isDeciding } || hub.wantsAngles }

    /// Called on the feed's thread for every reading.
    @Sendable func handle(_ reading: Reading) {
        let actions = state.withValue { state in
            if let settings = newSettings.withLock({ settings in defer { settings = nil }; return settings }) {
                state.adopt(settings)
                hub.setStaleAfter(staleAfter(settings))
            }
            return state.handle(reading, wantsAngles: hub.wantsAngles)
        }
        for action in actions {
            perform(action)
        }
    }

    private func perform(_ action: ReadingPipeline.Action) {
        switch action {
        case .sensorPaused:
            hub.sensorPaused()
        case .sensorOpened(let devices):
            replaying.withLock { $0 = devices.first?.uri.hasPrefix("replay:") == true }
            let statuses = devices.map(status)
            if let display = statuses.first { hub.sensorOpened(display, devices: statuses) }
        case .sensorLost(let reason):
            hub.sensorLost(reason: reason)
        case .stillWatch(let watch):
            hub.sensorStillWatch(watch)
        case .hinge(let hinge):
            hub.hingeChanged(hinge)
        case .angles(let angles, let acceleration, let raw, let time):
            // The sample's own moment on the wall clock: scans taken from a buffer together
            // were captured at different times.
            let timestamp = WallClock.now() - (MonotonicClock.now() - time)
            hub.publishAngles(angles, acceleration: acceleration, raw: raw, time: time, timestamp: timestamp)
        case .orientationChanged(let change):
            if change.orientation == .unknown {
                logger.warning("no good sensor reading for \(seconds(state.withValue { $0.settings.staleAfterMs } / 1000)); orientation is now unknown")
            }
            let when = replaying.withLock { $0 } ? " at \(formatDecimal((change.time * 1000).rounded() / 1000)) s of the trace" : ""
            logger.info("orientation \(change.previous) → \(change.orientation)\(when)")
            hub.publish(change.orientation)
        case .tiltChanged(let tilt):
            hub.tiltDecided(tilt)
        case .sensorRead:
            hub.sensorRead()
        case .readingsFailing(let error, let holding):
            logger.warning("cannot use a sensor reading: \(error); holding \(holding) until readings are good again")
        case .scaleWrong(let atRest):
            let g = atRest / state.withValue { $0.settings.gravity }
            let reads = "reads \(formatDecimal((atRest * 100).rounded() / 100)) m/s² (\(formatDecimal((g * 100).rounded() / 100)) g) at rest"
            // A trace has no driver to blame: its numbers are in other units (g, or raw counts).
            let isTrace = replaying.withLock { $0 }
            let problem = isTrace
                ? "\(reads): its samples are not in m/s² (in g, multiply them by 9.80665); orientation still works (orientd judges in the units it reads)"
                : "\(reads): its scale is wrong; orientation still works (orientd judges in the units it reads); report it to the kernel driver, or correct in_accel_scale with a udev rule"
            logger.warning("the \(isTrace ? "trace" : "display accelerometer") \(problem)")
            hub.sensorScaleWrong(problem)
        case .readingsRecovered(let failures, let after):
            logger.notice("sensor readings are good again after \(failures) failed reads over \(seconds(after))")
        }
    }

    private func status(of info: SensorInfo) -> SensorStatus {
        var status = SensorStatus(id: info.id, uri: info.uri, device: info.device, location: info.location, mountMatrix: info.mountMatrix,
                                  mountMatrixSource: info.mountMatrixSource, rate: rate, stillRate: stillRate, reading: true,
                                  hwdbMatch: info.hwdbMatch, syspath: info.syspath)
        status.scaleProblem = info.scaleNote
        return status
    }

    private func seconds(_ value: Double) -> String {
        "\((value * 10).rounded() / 10) s"
    }
}
