import Logging
import AccelerometerIO
import OrientationCore

/// Everything orientd can be told, from the config file or from flags: where to read, where to
/// serve, and every constant of the classifier.
public struct DaemonSettings: Equatable, Sendable {
    /// libiio contexts to read, each on a thread of its own. The display accelerometer of local:
    /// (else of the first) drives the screen and carries the rotation lock; the others are served
    /// to clients that ask for them by id or URI.
    public var uris = ["local:"]
    public var socketPath: String
    /// 25 polls a second keep a still device under 1 % of a core; the 70 ms filter keeps a turn
    /// under 200 ms (scripts/bench measures both).
    public var rate: Double = 25
    /// When the sensor is read at a slower rate because the device is still (SamplingPace).
    public var sampling = SamplingPace.Settings()
    /// How long a sensor is still read after the last client that needed it let go.
    public var keepReadingMs: Double = 5000
    public var maxClients = 1024
    /// A desktop session runs a handful of clients; 64 leaves room and still keeps one user from
    /// taking every place.
    public var maxClientsPerUser = 64
    public var stateFile = "/var/lib/orientd/state.json"
    /// Empty: only root may change the rotation lock.
    public var lockGroup = ""
    public var logLevel: Logger.Level = .info
    /// Serve iio-sensor-proxy's D-Bus interface (net.hadess.SensorProxy) on the system bus.
    public var sensorProxy = false
    /// Ask polkit (action net.hadess.SensorProxy.claim-sensor) before a D-Bus client may claim a
    /// sensor, as iio-sensor-proxy 3.4 and later do.
    public var sensorProxyPolkit = true
    public var classifier = ClassifierSettings()
    /// Mount matrices and locations the config file gives, by accelerometer id or context URI.
    public var devices: [String: DeviceSettings] = [:]

    /// `socketPath` is the default socket, which depends on the environment ($ORIENTD_SOCKET).
    public init(socketPath: String) {
        self.socketPath = socketPath
    }
}

extension DaemonSettings {
    /// Applies flags (name without dashes, value or nil when not given) over the settings so far,
    /// collecting every problem.
    public mutating func apply(flags: [(key: String, value: String?)]) throws(ConfigurationProblems) {
        var problems: [ConfigurationProblem] = []
        for (name, value) in flags {
            guard let value, let key = SettingKey.named(name) else { continue }
            if let problem = key.apply(value, to: &self) {
                problems.append(ConfigurationProblem(origin: key.flag, line: nil, reason: problem))
            }
        }
        if !problems.isEmpty { throw ConfigurationProblems(problems: problems) }
    }

    /// Keys that are each valid but defeat one another at this rate; each problem names both.
    public var conflicts: [ConfigurationProblem] {
        let pollMs = 1000 / rate
        var problems: [String] = []
        if classifier.filterResetGapMs <= 2 * pollMs {
            problems.append("filter-reset-gap-ms (\(formatDecimal(classifier.filterResetGapMs))) must be longer than two polls at rate \(formatDecimal(rate)) (\(formatDecimal(2 * pollMs)) ms), or every sample restarts the filter")
        }
        if classifier.staleAfterMs <= 2 * pollMs {
            problems.append("stale-after-ms (\(formatDecimal(classifier.staleAfterMs))) must be longer than two polls at rate \(formatDecimal(rate)) (\(formatDecimal(2 * pollMs)) ms), or one slow read makes the orientation unknown")
        }
        let stillPollMs = 1000 / sampling.stillRate
        if sampling.stillRate < rate, classifier.filterResetGapMs <= 2 * stillPollMs {
            problems.append("filter-reset-gap-ms (\(formatDecimal(classifier.filterResetGapMs))) must be longer than two polls at still-rate \(formatDecimal(sampling.stillRate)) (\(formatDecimal(2 * stillPollMs)) ms), or every sample of a still device restarts the filter")
        }
        let dormantPollMs = 1000 / sampling.dormantRate
        if sampling.dormantRate < min(rate, sampling.stillRate), classifier.filterResetGapMs <= dormantPollMs * 1.1 {
            problems.append("filter-reset-gap-ms (\(formatDecimal(classifier.filterResetGapMs))) must be longer than a poll at dormant-rate \(formatDecimal(sampling.dormantRate)) (\(formatDecimal(dormantPollMs)) ms) and a tenth, or every sample of a dormant device restarts the filter")
        }
        if classifier.swingWindowMs < pollMs {
            problems.append("swing-window-ms (\(formatDecimal(classifier.swingWindowMs))) must be at least one poll at rate \(formatDecimal(rate)) (\(formatDecimal(pollMs)) ms), or no swing is ever seen")
        }
        return problems.map { ConfigurationProblem(origin: "configuration", line: nil, reason: $0) }
    }
}
