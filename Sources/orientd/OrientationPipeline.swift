import AccelerometerIO
import Foundation
import Logging
import NIOConcurrencyHelpers
import OrientationCore
import OrientdHub
import OrientdProtocol

/// Sensor readings → classifier → hub, on the sensor thread: orientation changes, and angle
/// samples while someone wants them. When the sensor sleeps for want of demand, the hub is told
/// its orientation may go stale, and the first sample after waking decides afresh; likewise after
/// a sensor is (re)opened, which the hub hears of as its availability. Also tells the log when
/// readings start failing and when they recover, once each rather than on every poll.
final class OrientationPipeline: Sendable {
    private struct State {
        var classifier: Classifier
        var failingSince: Double?
        var failures = 0
        var paused = false
    }

    private let hub: OrientationHub
    private let logger: Logger
    private let settings: ClassifierSettings
    /// Polls per second, for the sensor's status.
    private let rate: Double
    private let state: NIOLockedValueBox<State>

    init(hub: OrientationHub, settings: ClassifierSettings = ClassifierSettings(), rate: Double, logger: Logger) {
        self.hub = hub
        self.settings = settings
        self.rate = rate
        self.logger = logger
        state = NIOLockedValueBox(State(classifier: Classifier(settings: settings)))
    }

    @Sendable func handle(_ reading: Reading) {
        let (change, angles, resumed) = state.withLockedValue { state -> (OrientationChange?, OrientationAngles?, Bool) in
            switch reading {
            case .paused, .opened, .lost:
                // Whatever the device does meanwhile is unknown: the first reading after waking
                // (or from the sensor opened) decides afresh, and a failed one starts the stale
                // clock anew.
                state.paused = true
                if case .lost = reading {
                    // The hub now says unknown; so must the classifier, to announce the next decision.
                    state.classifier = Classifier(settings: settings)
                    state.failingSince = nil
                    state.failures = 0
                }
                state.classifier.resume()
                return (nil, nil, false)
            case .sample(let sample):
                let resumed = state.paused
                state.paused = false
                if let since = state.failingSince {
                    logger.notice("sensor readings are good again after \(state.failures) failed reads over \(seconds(sample.time - since))")
                    state.failingSince = nil
                    state.failures = 0
                }
                let change = state.classifier.classify(sample)
                return (change, state.classifier.angles, resumed)
            case .failure(let error, let time):
                if state.failingSince == nil {
                    state.failingSince = time
                    logger.warning("cannot use a sensor reading: \(error); holding \(state.classifier.orientation) until readings are good again")
                }
                state.failures += 1
                return (state.classifier.noteMissingReading(at: time), nil, false)
            }
        }
        switch reading {
        case .paused:
            hub.sensorPaused()
        case .opened(let info):
            hub.sensorPaused()
            hub.sensorOpened(SensorStatus(
                uri: info.uri, device: info.device, location: info.location, mountMatrix: info.mountMatrix,
                mountMatrixSource: info.mountMatrixSource, rate: rate, reading: true))
        case .lost(let reason):
            hub.sensorLost(reason: reason)
        case .sample(let sample):
            if let angles, hub.wantsAngles {
                hub.publishAngles(angles, acceleration: sample.acceleration, time: sample.time, timestamp: Date().timeIntervalSince1970)
            }
        case .failure:
            break
        }
        if let change {
            if change.orientation == .unknown {
                logger.warning("no good sensor reading for \(seconds(settings.staleAfterMs / 1000)); orientation is now unknown")
            }
            logger.info("orientation \(change.previous) → \(change.orientation)")
            hub.publish(change.orientation)
        }
        // After the change is published, so whoever waited for a fresh reading is told of it.
        if resumed { hub.sensorResumed() }
    }

    private func seconds(_ value: Double) -> String {
        "\((value * 10).rounded() / 10) s"
    }
}
