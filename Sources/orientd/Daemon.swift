import AccelerometerIO
import CDaemonThreads
import DaemonThreads
import Glibc
import Logging
import NIOCore
import NIOPosix
import OrientationCore
import OrientdConfiguration
import OrientdHub
import OrientdProtocol
import SensorProxy
import ServiceLifecycle
import UnixSignals

/// What one start was asked for: the command line, parsed (`Orientd`), or every default.
struct DaemonInvocation {
    var config: String?
    var printConfig = false
    var replay: String?
    var fast = false
    /// The flags that mirror config-file keys, by key, as given (nil: not given).
    var flags: [(key: String, value: String?)] = []
}

/// The daemon: settings from the defaults, the config file and the flags, then the socket, the
/// sensors and the services until SIGTERM or SIGINT.
struct Daemon {
    /// EX_CONFIG: the unit does not restart a daemon whose configuration is wrong.
    static let configurationExitCode: Int32 = 78
    /// Seconds after serving at which the start-up pages are paged out.
    static let pageOutAfterSeconds: Int64 = 5
    let invocation: DaemonInvocation

    /// With --replay --fast: orientd stops at the end of the trace (scripts want it to).
    let replayEnd: ReplayEnd?

    init(_ invocation: DaemonInvocation) {
        self.invocation = invocation
        replayEnd = invocation.replay != nil && invocation.fast ? ReplayEnd() : nil
    }

    func run() async throws {
        let settings: DaemonSettings
        let configRead: Bool
        do {
            (settings, configRead) = try resolveSettings()
        } catch {
            let logger = DaemonLog.bootstrap(level: .info)
            for problem in error.problems { logger.error("\(problem)") }
            logger.error(invocation.printConfig
                ? "the configuration has problems; fix the problems above"
                : "refusing to start with a configuration that has problems; fix the problems above (check with --print-config)")
            throw DaemonExit(status: Self.configurationExitCode)
        }
        if invocation.printConfig {
            print(ConfigurationTemplate.render(settings, defaults: DaemonSettings(socketPath: Wire.socketPath(explicit: nil))), terminator: "")
            return
        }
        let logger = DaemonLog.bootstrap(level: settings.logLevel)
        let origin = !configRead ? "no \(configPath), default configuration"
            : access(configPath, F_OK) == 0 ? "configuration from \(configPath)"
            : "no \(configPath); configuration from the drop-ins in \(ConfigurationFile.dropInDirectory(for: configPath))"
        do {
            try await serve(settings, configuration: origin, logger: logger)
        } catch let failure as DaemonFailure {
            logger.error("\(failure)")
            throw DaemonExit(status: 1)
        }
    }

    /// Defaults, then the config file and its drop-ins, then flags; every problem in any is collected.
    /// The file named by --config, else the default one.
    private var configPath: String { invocation.config ?? ConfigurationFile.defaultPath }

    private func resolveSettings() throws(ConfigurationProblems) -> (DaemonSettings, configRead: Bool) {
        try Self.resolveSettings(configPath: configPath, required: invocation.config != nil, flags: invocation.flags)
    }

    static func resolveSettings(configPath: String, required: Bool, flags: [(key: String, value: String?)]) throws(ConfigurationProblems)
        -> (DaemonSettings, configRead: Bool) {
        var settings = DaemonSettings(socketPath: Wire.socketPath(explicit: nil))
        var problems: [ConfigurationProblem] = []
        var configRead = false
        do {
            configRead = try ConfigurationFile.apply(path: configPath, required: required, to: &settings)
        } catch {
            problems += error.problems
        }
        do {
            try settings.apply(flags: flags)
        } catch {
            problems += error.problems
        }
        // --socket and socket= are checked as they are read; a socket still in force that breaks
        // their rule (an absolute path) came from $ORIENTD_SOCKET, and is held to it too.
        if problems.isEmpty, let socketKey = SettingKey.named("socket"), let reason = socketKey.apply(settings.socketPath, to: &settings) {
            problems.append(ConfigurationProblem(origin: "$\(Wire.socketEnvironmentVariable)", line: nil, reason: reason))
        }
        if problems.isEmpty { problems = settings.conflicts }
        guard problems.isEmpty else { throw ConfigurationProblems(problems: problems) }
        return (settings, configRead)
    }

    /// Binds the socket first (a bad --socket fails before the sensor is touched), or adopts the
    /// one systemd passed; then opens the sensor, or starts waiting for one; then tells systemd it
    /// is ready and serves until SIGTERM or SIGINT.
    private func serve(_ settings: DaemonSettings, configuration origin: String, logger: Logger) async throws {
        // Before anything answers: a signal sent once the socket is up must not kill orientd.
        let signals = await UnixSignalsSequence(trapping: SignalService.trapped)
        let notifier = SystemdNotifier()
        // One context read by one feed for each URI (a replay is one feed), each with its hub;
        // the first one's hub is the main one: the screen, and the rotation lock. That is this
        // machine's when it is read, wherever local: stands in the list.
        let uris = settings.uris.filter { $0 == "local:" } + settings.uris.filter { $0 != "local:" }
        // The main context's ambient light and proximity sensors and compass, read when found and
        // then only while claimed or subscribed to (none for a replay).
        let keepReading = settings.keepReadingMs / 1000
        let ambient = invocation.replay == nil ? AmbientSensorPoller(uri: uris[0], keepReadingAfterRequest: keepReading, logger: logger) : nil
        let sensors = (invocation.replay.map { ["replay:\($0)"] } ?? uris).enumerated().map { index, uri in
            // A replayed trace plays regardless of clients; a sensor is read only while one needs it.
            let demand = invocation.replay == nil ? ReadingDemand(keepReadingAfterRequest: keepReading) : nil
            let hub = OrientationHub(
                serverName: "orientd \(OrientdVersion.current)",
                lockPolicy: LockPolicy(groupName: settings.lockGroup, logger: logger),
                // A replay is an experiment: it keeps the rotation lock only where --state-file says.
                lockStore: index == 0 && (invocation.replay == nil || invocation.flags.contains { $0.key == "state-file" && $0.value != nil }) ? RotationLockStore(path: settings.stateFile) : nil,
                demand: demand.map(PollerDemand.init),
                lightDemand: index == 0 ? ambient.map { PollerDemand($0.lightDemand) } : nil,
                proximityDemand: index == 0 ? ambient.map { PollerDemand($0.proximityDemand) } : nil,
                compassDemand: index == 0 ? ambient.map { PollerDemand($0.compassDemand) } : nil, logger: logger)
            return (uri: uri, demand: demand, hub: hub)
        }
        let hubs = DeviceHubs(sensors.map { DeviceHubs.Entry(uri: $0.uri, hub: $0.hub) })
        // A fast replay plays too fast for any client to follow (it has often ended before one
        // could connect): it opens no socket, and its log is what it serves.
        let server: HubServer?
        if replayEnd == nil {
            let passed = try SocketActivation.passedSocket()
            do {
                server = try await HubServer.bind(
                    passed.map { .passed(descriptor: $0) } ?? .path(settings.socketPath), hubs: hubs, sensorRate: settings.rate,
                    maximumClients: FileDescriptorBudget.clients(wanted: settings.maxClients, logger: logger),
                    maximumClientsPerUser: settings.maxClientsPerUser, logger: logger)
            } catch {
                let elsewhere = passed == nil
                    ? "; to serve elsewhere, pass --socket PATH (an absolute path, e.g. $XDG_RUNTIME_DIR/orientd.sock) or set $\(Wire.socketEnvironmentVariable)"
                    : ""
                throw DaemonFailure("\(error)\(elsewhere)")
            }
        } else {
            server = nil
        }

        // The watchdog follows the main feed (this machine's, when local: is read): another
        // board that hangs is libiio's network timeout's business (5 s), and must not restart
        // the daemon serving everyone else.
        let statusLine = SystemdStatusLine(hub: hubs.main, clients: { server?.connectedClients ?? 0 }, notifier: notifier)
        let heartbeat = notifier.heartbeatInterval.map { interval in
            SensorPoller.Heartbeat(interval: interval, beat: {
                notifier.heartbeat()
                statusLine.refresh()
            })
        }
        let events: OutsideEvents
        do {
            events = try openOutsideEvents(settings, hub: hubs.main, logger: logger)
        } catch {
            await server?.close()
            throw DaemonFailure("\(error)")
        }
        var feeds: [any SampleFeed] = []
        var pipelines: [OrientationPipeline] = []
        let configuredDevices = ConfiguredDevices(settings.devices)
        do {
            for (index, sensor) in sensors.enumerated() {
                let (rate, replaying) = (settings.rate, invocation.replay != nil)
                // A trace plays at its own pace; a sensor is read more slowly while it is still.
                let stillRate = replaying ? nil : settings.sampling.stillRate(below: rate)
                let pipeline = OrientationPipeline(hub: sensor.hub, settings: settings.classifier, rate: rate, stillRate: stillRate,
                                                   staleAfter: { Self.staleAfter($0, rate: rate, replaying: replaying) }, logger: logger)
                pipelines.append(pipeline)
                let feed = try makeFeed(uri: sensor.uri, rate: settings.rate, pace: settings.sampling, configured: configuredDevices, demand: sensor.demand,
                                        heartbeat: index == 0 ? heartbeat : nil, onReading: pipeline.handle, needsFullRate: pipeline.needsFullRate, logger: logger)
                feeds.append(feed)
            }
            let pollers = zip(sensors, feeds).compactMap { sensor, feed in sensor.uri.hasPrefix("local:") ? feed as? SensorPoller : nil }
            var listeners: [@Sendable (HotplugEvent) -> Void] = pollers.map { poller in { @Sendable in poller.hotplug($0) } }
            if let ambient { listeners.append { @Sendable in ambient.hotplug($0) } }
            let resumes = feeds.compactMap { $0 as? SensorPoller }.map { poller in { @Sendable in poller.systemResumed() } }
            events.start(hotplugListeners: listeners, resumeListeners: resumes)
            // Only the main feed is started before readiness; the others start as services of
            // the group: an unreachable board must not hold up the main one, nor readiness.
            // The ambient sensors are found before too: a D-Bus client asks at once whether there
            // are any. Both at once, and half a second at most: a board that does not answer (libiio
            // waits 5 s) must not keep every client waiting; they hear unknown and why meanwhile.
            let main = hubs.main
            ambient?.start { main.report($0) }
            let mainOpened = await start(feeds[0], waitingAtMost: 0.5)
            if let ambient, !ambient.waitForDiscovery(atMost: mainOpened ? 0.5 : 0.1) {
                logger.notice("\(sensors[0].uri) has not said yet which ambient sensors it has; serving meanwhile")
            }
            if !mainOpened {
                let uri = sensors[0].uri
                logger.notice("\(uri) has not answered within half a second; serving meanwhile (orientation unknown until it answers)")
                hubs.main.sensorNotOpenedYet(reason: "connecting to \(uri): no answer yet (libiio waits up to 5 s for a host that is down)")
            }
            // Last: a client reads the Has… properties as soon as the name appears.
            events.sensorProxy?.requestName()
        } catch {
            ambient?.stop()
            events.stop()
            for feed in feeds { feed.stop() }
            await server?.close()
            throw DaemonFailure("\(error)")
        }
        if let server {
            logger.info("serving the orientation on \(server.socketPath) (\(origin))")
            if server.socketPath != settings.socketPath {
                logger.notice("serving the socket systemd passed, not \(settings.socketPath) (the socket setting); move it with 'systemctl edit orientd.socket'")
            }
        }
        notifier.ready(status: SystemdStatusLine.line(hubs.main.status(clients: 0)))
        // Started: what the files' start-up code left resident (the argument parser, libiio's XML
        // parser, libgcrypt, the runtime's set-up) is paged out (MADV_PAGEOUT: nothing is lost,
        // whatever another thread maps meanwhile). Some seconds on: a page out leaves the page
        // cache, and the first clients' answers, right after the start, would read it back from disk.
        MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .seconds(Self.pageOutAfterSeconds)) {
            _ = orientd_release_clean_file_pages()
        }

        let (path, required, flags) = (configPath, invocation.config != nil, invocation.flags)
        let reloader = ConfigurationReloader(path: path, settings: settings, pipelines: pipelines, devices: configuredDevices,
                                             pollers: feeds.compactMap { $0 as? SensorPoller }, logger: logger) { () throws(ConfigurationProblems) in
            try Self.resolveSettings(configPath: path, required: required, flags: flags).0
        }
        let services: [any Service] = zip(sensors, feeds).enumerated().map { index, pair in
            SampleFeedService(feed: pair.1, uri: pair.0.uri, startedAlready: index == 0, logger: logger)
        } + [StoppingService(events: events, ambient: ambient, notifier: notifier, statusLine: statusLine)] + (server.map { [$0] } ?? [])
            + [SignalService(signals: signals, reloader: reloader, logger: logger)]
        let ending = replayEnd.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0, successTerminationBehavior: .gracefullyShutdownGroup)] } ?? []
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) } + ending,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
    }
}

extension Daemon {
    /// The event thread's watches: udev (for local: sensors coming and going; orientd goes on
    /// without, retrying on its own), logind (for a read at each resume; without, the pollers
    /// notice a suspend by their clocks) and, with --sensor-proxy, the D-Bus face (a failure to
    /// reach the bus stops orientd: it was asked to serve there).
    func openOutsideEvents(_ settings: DaemonSettings, hub: OrientationHub, logger: Logger) throws -> OutsideEvents {
        let events = OutsideEvents(loop: try DescriptorLoop(name: "orientd-events"))
        if invocation.replay == nil, settings.uris.contains("local:") {
            do {
                try events.watchUdev(logger: logger)
            } catch {
                logger.warning("\(error); a sensor that comes or goes is noticed within \(Int(SensorPoller.longestReopenDelay)) s instead")
            }
        }
        if invocation.replay == nil {
            do {
                try events.watchSleep(logger: logger)
            } catch {
                logger.info("\(error); a resume is noticed by the clock instead, at the sensor poller's next wake-up (a safety read's at the latest)")
            }
        }
        if settings.sensorProxy {
            try events.serveSensorProxy(hub: hub, authorizeWithPolkit: settings.sensorProxyPolkit, logger: logger)
            if !settings.sensorProxyPolkit {
                logger.notice("claims of sensors over D-Bus are not checked with polkit (sensor-proxy-polkit false): any local user may claim them")
            }
        }
        return events
    }

    /// The libiio poller of `uri`, or the trace player for --replay.
    func makeFeed(uri: String, rate: Double, pace: SamplingPace.Settings, configured: ConfiguredDevices, demand: ReadingDemand?,
                  heartbeat: SensorPoller.Heartbeat?, onReading: @escaping @Sendable (Reading) -> Void,
                  needsFullRate: @escaping @Sendable () -> Bool, logger: Logger) throws -> any SampleFeed {
        if let replay = invocation.replay {
            let player = try TracePlayer(path: replay, realTime: !invocation.fast, logger: logger, onReading: onReading,
                                         onFinished: replayEnd?.reached)
            logger.info("replaying \(player.info.device) from \(replay)\(invocation.fast ? " as fast as possible" : " in real time")")
            return player
        }
        return SensorPoller(rate: rate, pace: pace, demand: demand, heartbeat: heartbeat, logger: logger, open: {
            let sensors = try Accelerometers.openAll(uri: uri, configured: configured.current, rate: rate, logger: logger)
            let still = pace.stillRate(below: rate).map { ", \(formatDecimal($0)) while the device is still" } ?? ""
            for info in sensors.map(\.info) {
                logger.info("reading \(info.device) at \(info.uri) (\(info.location), id \(info.id)) \(formatDecimal(rate)) times a second\(still); mount matrix \(info.mountMatrix) from \(info.mountMatrixSource)")
                if let note = info.scaleNote { logger.notice("\(note)") }
            }
            return sensors
        }, onReading: onReading, needsFullRate: needsFullRate)
    }
}

extension Daemon {
    /// How old the last reading may be (seconds) for a request to be answered at once: as long
    /// as the classifier's filter remembers (after a longer gap the next reading decides afresh),
    /// and at least a few polls. A replay's last reading stays the truth once the trace has ended.
    static func staleAfter(_ classifier: ClassifierSettings, rate: Double, replaying: Bool) -> Double {
        replaying ? 86_400 : max(classifier.filterResetGapMs / 1000, 3 / rate)
    }
}

/// The end of a start that has been logged already: exit with `status`.
struct DaemonExit: Error {
    let status: Int32
}

/// A fatal start-up problem: logged as one line ("orientd: error: ..."), then a non-zero exit.
struct DaemonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
