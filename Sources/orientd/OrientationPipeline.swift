import AccelerometerIO
import Logging
import NIOConcurrencyHelpers
import OrientationCore
import OrientdHub

/// Sensor readings → classifier → hub, on the sensor thread. Also tells the log when readings
/// start failing and when they recover, once each rather than on every poll.
final class OrientationPipeline: Sendable {
    private struct State {
        var classifier: Classifier
        var failingSince: Double?
        var failures = 0
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
        let change: OrientationChange? = state.withLockedValue { state in
            switch reading {
            case .sample(let sample):
                if let since = state.failingSince {
                    logger.notice("sensor readings are good again after \(state.failures) failed reads over \(seconds(sample.time - since))")
                    state.failingSince = nil
                    state.failures = 0
                }
                return state.classifier.classify(sample)
            case .failure(let error, let time):
                if state.failingSince == nil {
                    state.failingSince = time
                    logger.warning("cannot use a sensor reading: \(error); holding \(state.classifier.orientation) until readings are good again")
                }
                state.failures += 1
                return state.classifier.noteMissingReading(at: time)
            }
        }
        guard let change else { return }
        if change.orientation == .unknown {
            logger.warning("no good sensor reading for \(seconds(settings.staleAfterMs / 1000)); orientation is now unknown")
        }
        logger.info("orientation \(change.previous) → \(change.orientation)")
        hub.publish(change)
    }

    private func seconds(_ value: Double) -> String {
        "\((value * 10).rounded() / 10) s"
    }
}
