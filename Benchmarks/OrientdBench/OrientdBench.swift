import ArgumentParser
import Foundation
import OrientationCore
import ProcessHarness
import ScenarioCorpus

@main
struct OrientdBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientd-bench",
        abstract: "Measure orientd, and iio-sensor-proxy beside it, on one emulated accelerometer.",
        discussion: """
            Both daemons read the same umockdev-emulated sensor at their default settings, each \
            with one client: orientd with a socket subscriber, iio-sensor-proxy (on a private \
            D-Bus system bus) with monitor-sensor. Prints step latency, physical-turn latency, \
            first answer, spurious events on every corpus scenario, and, for each daemon alone \
            with the device still, its samples and wake-ups per second, CPU time, threads and \
            memory, as Markdown tables. Run it with scripts/bench, which measures the static \
            release build the package ships.
            """)

    @Option(help: "orientd executable to measure. (default: the one beside this program)")
    var orientd: String?

    @Option(help: "Step-latency trials.")
    var trials = 30

    @Option(help: "Physical-turn trials: gravity sweeps through the screen's plane over --motion-ms after a still pause.")
    var turns = 20

    @Option(help: "Pick-ups from flat of each kind (at once, by hand over 400 ms), each after 4 s lying flat.")
    var pickUps = 8

    @Option(help: "How long each physical turn takes, in ms.")
    var motionMs = 300.0

    @Option(help: "Daemon starts (orientd) or new clients (iio-sensor-proxy) timed for the first answer.")
    var starts = 10

    @Option(help: "Seconds of the still, subscribed window in which CPU time is measured.")
    var cpuSeconds = 30.0

    @Option(help: "Turns from still on the device with a motion interrupt (a bmc150 whose any-motion event is emulated); 0 skips that part.")
    var eventTurns = 20

    @Option(help: "Seed of the random pauses between turns.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("An option for orientd, as --orientd-option=--rate=25 (repeatable); the default is none: its default settings.", valueName: "option"))
    var orientdOption: [String] = []

    @Option(help: ArgumentHelp("Play only this corpus scenario (repeatable; default: all; 'none' for none).", valueName: "name"))
    var scenario: [String] = []

    @Option(help: ArgumentHelp("""
        Measure nothing else: play this orientd trace (time_s x y z, m/s²) on the sensor in real \
        time while both daemons read it, and print each orientation they report (repeatable; \
        scripts/bench-recordings uses it for its real-time subset).
        """, valueName: "trace"))
    var playTrace: [String] = []

    @Option(help: ArgumentHelp("Where iio-sensor-proxy's package is unpacked (scripts/bench passes the copy scripts/setup unpacks into .build; nothing is installed).", valueName: "root"))
    var iioSensorProxy: String?

    @Flag(help: "Measure orientd alone.")
    var withoutProxy = false

    @Flag(help: """
        Serve the sensor with iiod on a loopback port and have orientd read it there         (--uri ip:127.0.0.1:PORT): libiio's network path. First prints how fast orientd reads         local: and the loopback context when polling as fast as it may. Implies         --without-proxy (iio-sensor-proxy reads local sensors only).
        """)
    var throughIiod = false

    /// Seconds the device lies still before a daemon's still window.
    static let stillBeforeWindow = 12.0

    private var proxyPackage: SensorProxyPackage? { iioSensorProxy.map(SensorProxyPackage.init(root:)) }

    /// iio-sensor-proxy is measured beside orientd unless told not to, or orientd reads remotely.
    private var measuresProxy: Bool { !withoutProxy && !throughIiod }

    func validate() throws {
        guard eventTurns >= 0 else { throw ValidationError("--event-turns must be 0 or more") }
        guard trials >= 1, turns >= 1, pickUps >= 1, starts >= 1, cpuSeconds >= 1, motionMs > 0 else { throw ValidationError("--trials, --turns, --pick-ups, --starts, --cpu-seconds and --motion-ms must be positive") }
        for name in scenario where name != "none" && Corpus.named(name) == nil {
            throw ValidationError("no scenario '\(name)'; the corpus has \(Corpus.all.map(\.name).joined(separator: ", "))")
        }
        if measuresProxy, !(proxyPackage?.isUnpacked ?? false) {
            throw ValidationError("no iio-sensor-proxy unpacked at \(iioSensorProxy ?? "(none given)"): pass --iio-sensor-proxy ROOT (scripts/bench does), or --without-proxy")
        }
    }

    func run() throws {
        let executable = orientd ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("orientd").path
        let scratch = try scratchDirectory()
        let sensor = try BenchSensor()
        let say = { (text: String) in FileHandle.standardError.write(Data("orientd-bench: \(text)\n".utf8)) }
        var orientdOption = orientdOption
        var iiod: LoopbackIiod?
        defer { iiod?.stop() }
        if throughIiod {
            let started = try LoopbackIiod(environment: sensor.environment, log: scratch + "/iiod.log")
            iiod = started
            say("measuring how fast orientd reads local: and \(started.uri) (5 s each)")
            let rates = try ["local:", started.uri].map { uri in
                try ReadRate.measure(executable: executable, uri: uri, environment: sensor.environment,
                                     socketPath: scratch + "/rate.sock", log: scratch + "/orientd-rate.log", seconds: 5)
            }
            print("How fast orientd reads one accelerometer, polling as fast as it may (--rate 1000; each sample is three attribute reads):\n")
            print(ReadRate.table(rates) + "\n")
            orientdOption += ["--uri", started.uri]
        }

        if !playTrace.isEmpty {
            try playTraces(executable: executable, options: orientdOption, scratch: scratch, sensor: sensor, say: say)
            try? FileManager.default.removeItem(atPath: scratch)
            return
        }

        let started = OrientdUnderTest.startedAsSystemdStartsIt(options: orientdOption, socketPath: "", environment: [:]).arguments
        say(started.isEmpty ? "orientd starts as its unit starts it: no arguments, the socket from $ORIENTD_SOCKET"
                            : "orientd starts with \(started.joined(separator: " ")) (so through its argument parser)")
        say("timing \(starts) first answers of orientd (process start to first orientation)")
        let orientdFirst = try (0..<starts).map { _ in
            try OrientdUnderTest.timeFirstAnswer(executable: executable, options: orientdOption, socketPath: scratch + "/first.sock",
                                                 environment: sensor.environment, log: scratch + "/orientd-first.log")
        }
        var proxy: SensorProxyUnderTest?
        var proxyFirst: [Double] = []
        let bus = measuresProxy ? try PrivateSystemBus(directory: scratch) : nil
        if let bus, let package = proxyPackage {
            say("timing \(starts) first answers of iio-sensor-proxy (process start to first orientation)")
            proxyFirst = try (0..<starts).map { _ in
                try SensorProxyUnderTest.timeFirstAnswer(package: package, bus: bus, sensorEnvironment: sensor.environment)
            }
            let started = try SensorProxyUnderTest(package: package, bus: bus, sensorEnvironment: sensor.environment)
            try started.startMonitoring()
            proxy = started
        }
        let orientdUnderTest = try OrientdUnderTest(executable: executable, options: orientdOption, socketPath: scratch + "/orientd.sock",
                                                    environment: sensor.environment, log: scratch + "/orientd.log")
        defer { orientdUnderTest.stop() }
        let daemons: [any DaemonUnderTest] = [orientdUnderTest] + (proxy.map { [$0] } ?? [])
        sleep(seconds: 1.5)

        say("\(trials) step-latency trials")
        var random = SeededRandom(seed: seed)
        let latencies = measureStepLatency(sensor: sensor, daemons: daemons, trials: trials, random: &random)
        say("\(turns) physical turns of \(Int(motionMs)) ms")
        let physical = measurePhysicalTurns(sensor: sensor, daemons: daemons, trials: turns, motion: motionMs / 1000, random: &random)
        say("\(pickUps) pick-ups from flat at once, \(pickUps) by hand")
        let instantPickUps = measurePickUps(sensor: sensor, daemons: daemons, trials: pickUps, over: nil, random: &random)
        let handPickUps = measurePickUps(sensor: sensor, daemons: daemons, trials: pickUps, over: 0.4, random: &random)
        let played = scenario.isEmpty ? Corpus.all : Corpus.all.filter { scenario.contains($0.name) }
        say("playing \(played.count) corpus scenarios in real time")
        let scenarios = measureScenarios(played, sensor: sensor, daemons: daemons,
                                        progress: { say("  scenario \($0)") }, mismatch: { say("    \($0)") })
        sensor.turn(to: .portrait)
        // Each daemon is measured alone, so every read of the sensor in its window is its own:
        // iio-sensor-proxy stops polling when its client leaves, orientd is stopped after its window.
        // A device left lying: still for 12 s before the window (orientd reads a device still for
        // 10 s at its dormant rate; iio-sensor-proxy polls alike all the time).
        proxy?.stopMonitoring()
        sleep(seconds: Self.stillBeforeWindow)
        say("measuring orientd over \(cpuSeconds.formatted()) s, device still, one subscriber")
        var use = ["orientd": try measureResourceUse(of: orientdUnderTest, sensor: sensor, seconds: cpuSeconds)]
        orientdUnderTest.stop()
        if let proxy {
            try proxy.startMonitoring()
            sleep(seconds: Self.stillBeforeWindow)
            say("measuring iio-sensor-proxy over \(cpuSeconds.formatted()) s, device still, monitor-sensor claiming")
            use[proxy.name] = try measureResourceUse(of: proxy, sensor: sensor, seconds: cpuSeconds)
        }

        var motionEvents: MotionEventReport?
        if eventTurns > 0, !throughIiod {
            // One iio-sensor-proxy at a time owns the bus name; and its monitor-sensor must go
            // too, or it would claim the accelerometer of the next one as soon as it appears.
            proxy?.stopMonitoring()
            proxy?.daemonProcess.stop()
            motionEvents = try measureMotionEvents(executable: executable, scratch: scratch, bus: bus, random: &random, say: say)
        }

        if !orientdOption.isEmpty { print("orientd run with \(orientdOption.joined(separator: " "))\n") }
        print(Report(daemons: daemons.map(\.name), trials: trials, starts: starts, cpuSeconds: cpuSeconds,
                     latencies: latencies, physicalTurns: physical, motionMs: motionMs,
                     instantPickUps: instantPickUps, handPickUps: handPickUps, firstAnswers: ["orientd": orientdFirst, "iio-sensor-proxy": proxyFirst],
                     scenarios: scenarios, use: use).markdown)
        if let motionEvents { print("\n" + motionEvents.markdown) }
        withExtendedLifetime(bus) {}  // iio-sensor-proxy needs its bus until the very end
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// The still device with a motion interrupt, each daemon on its own: turns from still, then
    /// what each costs while the device lies still with one client. orientd is started through
    /// its argument parser here (--config, --socket, --log-level), where the main run starts it
    /// as its unit does, so its peak memory is measured both ways.
    private func measureMotionEvents(executable: String, scratch: String, bus: PrivateSystemBus?, random: inout SeededRandom,
                                     say: (String) -> Void) throws -> MotionEventReport {
        let sensor = try BenchSensor(motionEvents: true)
        var proxy: SensorProxyUnderTest?
        if let bus, let package = proxyPackage {
            sleep(seconds: 1)  // the bus lets the stopped one's name go
            let started = try SensorProxyUnderTest(package: package, bus: bus, sensorEnvironment: sensor.environment)
            try started.startMonitoring()
            proxy = started
        }
        let options = orientdOption.isEmpty ? ["--log-level", "info"] : orientdOption
        let orientd = try OrientdUnderTest(executable: executable, options: options, socketPath: scratch + "/events.sock",
                                           environment: sensor.environment, log: scratch + "/orientd-events.log",
                                           wrapper: sensor.events?.wrapper ?? [])
        defer { orientd.stop() }
        let daemons: [any DaemonUnderTest] = [orientd] + (proxy.map { [$0] } ?? [])
        say("with motion events (a bmc150 whose any-motion interrupt is emulated): \(eventTurns) turns from still")
        // After 3 to 4.5 s still: orientd sleeps on the event by then.
        let turns = measureStepLatency(sensor: sensor, daemons: daemons, trials: eventTurns, pause: 3...4.5, random: &random)
        sensor.turn(to: .portrait)
        proxy?.stopMonitoring()
        sleep(seconds: 3)
        say("with motion events: measuring orientd over \(cpuSeconds.formatted()) s, device still, one subscriber")
        var use = ["orientd": try measureResourceUse(of: orientd, sensor: sensor, seconds: cpuSeconds)]
        orientd.stop()
        if let proxy {
            try proxy.startMonitoring()
            sleep(seconds: 3)
            say("with motion events: measuring iio-sensor-proxy over \(cpuSeconds.formatted()) s, device still, monitor-sensor claiming")
            use[proxy.name] = try measureResourceUse(of: proxy, sensor: sensor, seconds: cpuSeconds)
            proxy.stopMonitoring()
        }
        return MotionEventReport(daemons: daemons.map(\.name), orientdArguments: options, cpuSeconds: cpuSeconds,
                                 turns: turns, use: use)
    }

    /// Each trace played in real time to both daemons, started afresh on its first sample.
    private func playTraces(executable: String, options: [String], scratch: String, sensor: BenchSensor,
                            say: (String) -> Void) throws {
        let playback = TracePlayback(paths: playTrace)
        let traces = try playback.loadTraces()
        let bus = measuresProxy ? try PrivateSystemBus(directory: scratch) : nil
        defer { withExtendedLifetime(bus) {} }
        for (path, samples) in traces {
            say("playing \(path) in real time (\(Int((samples.last!.time - samples.first!.time).rounded())) s)")
            sensor.show(samples[0].acceleration)
            var proxy: SensorProxyUnderTest?
            if let bus, let package = proxyPackage {
                let started = try SensorProxyUnderTest(package: package, bus: bus, sensorEnvironment: sensor.environment)
                try started.startMonitoring()
                proxy = started
            }
            let orientdUnderTest = try OrientdUnderTest(executable: executable, options: options, socketPath: scratch + "/orientd.sock",
                                                        environment: sensor.environment, log: scratch + "/orientd.log")
            playback.play(path, samples, sensor: sensor, daemons: [orientdUnderTest] + (proxy.map { [$0] } ?? []))
            orientdUnderTest.stop()
            proxy?.stopMonitoring()
            proxy?.daemonProcess.stop()
        }
    }

    private func scratchDirectory() throws -> String {
        var template = Array("/tmp/orientd-bench-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchFailure("cannot make a scratch directory in /tmp")
        }
        return String(cString: made)
    }
}
