import AccelerometerIO
import Foundation
import Logging
import NIOConcurrencyHelpers
import OrientationCore
import OrientdHub
import OrientdProtocol

/// Sensor readings → classifier → hub, on the sensor thread: orientation changes from the display
/// accelerometer, angle samples while someone wants them, and on a convertible the hinge angle
/// and tablet mode from the display and base accelerometers together. When the sensor sleeps for
/// want of demand, the hub is told its orientation may go stale, and the first sample after
/// waking decides afresh; likewise after a sensor is (re)opened, which the hub hears of as its
/// availability. Also tells the log when readings start failing and when they recover, once each
/// rather than on every poll.
final class OrientationPipeline: Sendable {
    private struct State {
        var classifier: Classifier
        var tabletMode = TabletModeDetector()
        /// The accelerometers opened: the display one drives the screen; a base one the hinge.
        var display: String?
        var base: String?
        var failingSince: Double?
        var failures = 0
        var paused = false
    }

    private let hub: OrientationHub
    private let logger: Logger
    /// Polls per second, for the sensor's status.
    private let rate: Double
    private let state: NIOLockedValueBox<State>

    init(hub: OrientationHub, settings: ClassifierSettings = ClassifierSettings(), rate: Double, logger: Logger) {
        self.hub = hub
        self.rate = rate
        self.logger = logger
        state = NIOLockedValueBox(State(classifier: Classifier(settings: settings)))
    }

    @Sendable func handle(_ reading: Reading) {
        let display = state.withLockedValue { $0.display }
        if case .sample(let sample, let device) = reading, device != display {
            handleOtherDevice(sample, device: device)
            return
        }
        if case .failure(let error, _, let device) = reading, device != display {
            let hinge = state.withLockedValue { state in
                device == state.base ? state.tabletMode.unreadable(because: "cannot read the base accelerometer: \(error)") : nil
            }
            if let hinge { hub.hingeChanged(hinge) }
            return
        }
        let (change, angles, resumed, hinge, staleAfterMs) = state.withLockedValue { state -> (OrientationChange?, OrientationAngles?, Bool, TabletModeDetector.State?, Double) in
            let staleAfterMs = state.classifier.settings.staleAfterMs
            switch reading {
            case .paused, .opened, .lost:
                // Whatever the device does meanwhile is unknown: the first reading after waking
                // (or from the sensor opened) decides afresh, and a failed one starts the stale
                // clock anew.
                state.paused = true
                if case .lost = reading {
                    // The hub now says unknown; so must the classifier, to announce the next decision.
                    state.classifier = Classifier(settings: state.classifier.settings)
                    state.failingSince = nil
                    state.failures = 0
                }
                if case .opened(let devices) = reading {
                    state.display = devices.first?.id
                    state.base = devices.dropFirst().first { $0.location == .base }?.id
                }
                if case .lost = reading { state.base = nil }
                // After a pause the filters restart by themselves; the angle's history (what
                // tells 0° from 360°) is kept, unless the accelerometers themselves changed.
                if case .paused = reading {} else { state.tabletMode.reset() }
                state.classifier.resume()
                return (nil, nil, false, nil, staleAfterMs)
            case .sample(let sample, _):
                let resumed = state.paused
                state.paused = false
                if let since = state.failingSince {
                    logger.notice("sensor readings are good again after \(state.failures) failed reads over \(seconds(sample.time - since))")
                    state.failingSince = nil
                    state.failures = 0
                }
                let change = state.classifier.classify(sample)
                let hinge = state.base == nil ? nil : state.tabletMode.display(sample)
                return (change, state.classifier.angles, resumed, hinge, staleAfterMs)
            case .failure(let error, let time, _):
                if state.failingSince == nil {
                    state.failingSince = time
                    logger.warning("cannot use a sensor reading: \(error); holding \(state.classifier.orientation) until readings are good again")
                }
                state.failures += 1
                return (state.classifier.noteMissingReading(at: time), nil, false, nil, staleAfterMs)
            }
        }
        switch reading {
        case .paused:
            hub.sensorPaused()
        case .opened(let devices):
            hub.sensorPaused()
            let statuses = devices.map(status)
            if let display = statuses.first { hub.sensorOpened(display, devices: statuses) }
            hub.hingeChanged(TabletModeDetector.State(problem: devices.contains { $0.location == .base } ? "waiting for readings"
                : "no base accelerometer: the hinge angle needs one in the display and one in the base"))
        case .lost(let reason):
            hub.sensorLost(reason: reason)
            hub.hingeChanged(TabletModeDetector.State(problem: "the accelerometers are unavailable: \(reason)"))
        case .sample(let sample, _):
            if let hinge { hub.hingeChanged(hinge) }
            if let angles, hub.wantsAngles {
                // The sample's own moment on the wall clock: scans taken from a buffer together
                // were captured at different times.
                let timestamp = Date().timeIntervalSince1970 - (MonotonicClock.now() - sample.time)
                hub.publishAngles(angles, acceleration: sample.acceleration, time: sample.time, timestamp: timestamp)
            }
        case .failure:
            break
        }
        if let change {
            if change.orientation == .unknown {
                logger.warning("no good sensor reading for \(seconds(staleAfterMs / 1000)); orientation is now unknown")
            }
            logger.info("orientation \(change.previous) → \(change.orientation)")
            hub.publish(change.orientation)
        }
        // After the change is published, so whoever waited for a fresh reading is told of it.
        if resumed { hub.sensorResumed() }
    }

    /// New classifier constants from a reloaded config, taken between two readings (under the
    /// lock the sensor thread holds for each): the orientation decided so far stands.
    func adopt(_ settings: ClassifierSettings) {
        state.withLockedValue { $0.classifier.adopt(settings) }
    }

    /// A sample of an accelerometer other than the display's: the base one feeds the hinge angle.
    private func handleOtherDevice(_ sample: AccelerometerSample, device: String) {
        let hinge = state.withLockedValue { state in
            device == state.base ? state.tabletMode.base(sample) : nil
        }
        if let hinge { hub.hingeChanged(hinge) }
    }

    private func status(of info: SensorInfo) -> SensorStatus {
        SensorStatus(id: info.id, uri: info.uri, device: info.device, location: info.location, mountMatrix: info.mountMatrix,
                     mountMatrixSource: info.mountMatrixSource, rate: rate, reading: true)
    }

    private func seconds(_ value: Double) -> String {
        "\((value * 10).rounded() / 10) s"
    }
}
