import AccelerometerIO
import Foundation
import Logging
import NIOConcurrencyHelpers
import OrientationCore
import OrientdHub

/// Sensor readings → classifier → hub, on the sensor thread: orientation changes, and angle
/// samples while someone wants them. When the sensor sleeps for want of demand, the hub is told
/// its orientation may go stale, and the first sample after waking decides afresh. Also tells the
/// log when readings start failing and when they recover, once each rather than on every poll.
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
    private let state: NIOLockedValueBox<State>

    init(hub: OrientationHub, settings: ClassifierSettings = ClassifierSettings(), logger: Logger) {
        self.hub = hub
        self.settings = settings
        self.logger = logger
        state = NIOLockedValueBox(State(classifier: Classifier(settings: settings)))
    }

    @Sendable func handle(_ reading: Reading) {
        let (change, angles, resumed) = state.withLockedValue { state -> (OrientationChange?, OrientationAngles?, Bool) in
            switch reading {
            case .paused:
                // Whatever the device does meanwhile is unknown: the first reading after waking
                // decides afresh, and a failed one starts the stale clock anew.
                state.paused = true
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
