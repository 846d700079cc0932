import AccelerometerIO
import Synchronization
import Logging
import OrientdConfiguration
import ServiceLifecycle
import UnixSignals

/// The signals a system daemon is sent besides SIGTERM and SIGINT (which stop it): SIGHUP re-reads
/// the config file; SIGUSR1, SIGUSR2 and SIGALRM, which would otherwise end the process at once,
/// mean nothing to orientd and are ignored (at debug level in the log).
struct SignalService: Service {
    /// Trapped before the socket is bound, so a signal sent as soon as orientd answers is caught.
    static let trapped: [UnixSignal] = [.sighup, .sigusr1, .sigusr2, .sigalrm]

    let signals: UnixSignalsSequence
    let reloader: ConfigurationReloader
    let logger: Logger

    func run() async throws {
        for await signal in signals.cancelOnGracefulShutdown() {
            if signal == .sighup {
                reloader.reload()
            } else {
                logger.debug("ignoring \(signal): it means nothing to orientd (SIGHUP reloads the config, SIGTERM stops)")
            }
        }
        // Only shutdown ends the loop; returning earlier would stop the whole group.
        try? await gracefulShutdown()
    }
}

/// Re-reads the config file (and the flags over it, as at start) on SIGHUP. A file with problems
/// is reported line by line and changes nothing; otherwise the log level and the classifier's
/// constants apply at once, new `[Device]` sections reopen the accelerometers with them, and the
/// keys that need a restart are named, in one line.
final class ConfigurationReloader: Sendable {
    typealias Resolve = @Sendable () throws(ConfigurationProblems) -> DaemonSettings

    private let path: String
    private let resolve: Resolve
    private let inForce: Mutex<DaemonSettings>
    private let pipelines: [OrientationPipeline]
    private let devices: ConfiguredDevices
    private let pollers: [SensorPoller]
    private let logger: Logger

    init(path: String, settings: DaemonSettings, pipelines: [OrientationPipeline], devices: ConfiguredDevices, pollers: [SensorPoller],
         logger: Logger, resolve: @escaping Resolve) {
        self.path = path
        self.resolve = resolve
        inForce = Mutex(settings)
        self.pipelines = pipelines
        self.devices = devices
        self.pollers = pollers
        self.logger = logger
    }

    func reload() {
        let reloaded: DaemonSettings
        do {
            reloaded = try resolve()
        } catch {
            for problem in error.problems { logger.error("\(problem)") }
            logger.error("not reloading the configuration: \(path) has problems (above); the settings in force are kept; fix them and send SIGHUP again (check with --print-config)")
            return
        }
        inForce.withLock { running in
            let changes = SettingChanges(from: running, to: reloaded)
            // Checked as it would run: the live keys' new values with the rate still in force.
            let conflicts = changes.inForce.conflicts
            guard conflicts.isEmpty else {
                for problem in conflicts { logger.error("\(problem)") }
                logger.error("not reloading the configuration: with the rate in force until a restart, \(path) has the conflicts above; the settings in force are kept")
                return
            }
            // Said before the level changes, so a stricter level does not hide it.
            if changes.applied.isEmpty {
                logger.notice("reloaded the configuration from \(path): nothing to apply")
            } else {
                logger.notice("reloaded the configuration from \(path): applied \(changes.applied.joined(separator: ", "))")
            }
            if !changes.needRestart.isEmpty {
                logger.warning("\(changes.needRestart.joined(separator: ", ")) changed in \(path) but take\(changes.needRestart.count == 1 ? "s" : "") effect only when orientd restarts")
            }
            if changes.inForce.logLevel != running.logLevel { DaemonLog.level.withLock { $0 = changes.inForce.logLevel } }
            if changes.inForce.classifier != running.classifier {
                for pipeline in pipelines { pipeline.adopt(changes.inForce.classifier) }
            }
            if changes.inForce.devices != running.devices {
                devices.replace(with: changes.inForce.devices)
                for poller in pollers { poller.reconfigure() }
            }
            running = changes.inForce
        }
    }
}
