import ArgumentParser
import EmulatedSensor
import Foundation
import ProcessHarness

@main
struct OrientdFanout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientd-fanout",
        abstract: "Measure how fast orientd hands one orientation change to many subscribers.",
        discussion: """
            For each number of subscribers, starts a fresh orientd on a umockdev-emulated \
            accelerometer, subscribes that many connections (plain sockets, read through epoll by one thread per core), turns the device between \
            portrait and landscapeLeft, and times each change from orientd's decision (the \
            event's timestamp) to its arrival at the first and the last subscriber. With \
            --with-stalled-reader (the default) every count runs again with one more subscriber \
            that never reads its socket. Prints a Markdown table on standard output, progress on \
            standard error. Run it with scripts/bench-fanout, which builds orientd in release mode first.
            """)

    @Option(help: "orientd executable to measure. (default: the one beside this program)")
    var orientd: String?

    @Option(help: ArgumentHelp("Numbers of subscribers, one row each.", valueName: "n,n,..."))
    var subscribers = CountList([1, 100, 1000, 10000])

    @Option(help: "Orientation changes per row.")
    var changes = 20

    @Option(help: "Seconds between changes (the classifier has lockouts).")
    var settle = 1.5

    @Option(help: "Seconds to wait for every subscriber to receive a change, or to subscribe.")
    var timeout = 10.0

    @Option(help: ArgumentHelp("An option for orientd, as --orientd-option=--rate=50 (repeatable).", valueName: "option"))
    var orientdOption: [String] = []

    @Flag(inversion: .prefixedNo, help: "Run every count again with one extra subscriber that never reads its socket.")
    var withStalledReader = true

    @Option(help: "Instead of the fan-out rows: this many clients call get back to back beside the largest --subscribers count, while the device turns every --turn-every seconds; how far behind the turns the answers are.")
    var getLoops = 0

    @Option(help: "Seconds between turns with --get-loops.")
    var turnEvery = 0.5

    @Option(help: "Steps of each 90° turn with --get-loops: 9 (10° each, 10 ms apart) as a quick hand turns; 1 writes the new orientation's axis files one after another, so a reader may see two orientations' axes mixed (a writer starved between files shows it for longer).")
    var turnSteps = 9

    @Option(help: "Seconds of turning with --get-loops.")
    var loadSeconds = 20.0

    @Option(help: ArgumentHelp("With --get-loops, measure iio-sensor-proxy too, from its package unpacked at this directory (scripts/bench-fanout passes the copy scripts/setup unpacks).", valueName: "root"))
    var iioSensorProxy: String?

    func validate() throws {
        guard changes >= 1, settle >= 0, timeout > 0 else { throw ValidationError("--changes and --timeout must be positive") }
        guard turnSteps >= 1 else { throw ValidationError("--turn-steps must be 1 or more") }
    }

    func run() throws {
        let executable = orientd ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("orientd").path
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw FanoutFailure("no orientd at \(executable); pass --orientd PATH") }
        let say = { (text: String) in FileHandle.standardError.write(Data("orientd-fanout: \(text)\n".utf8)) }
        let limit = try FileLimit.raise()
        try FileLimit.check(connections: subscribers.counts.max()! + 1)
        say("open-file limit \(limit)")

        let scratch = try scratchDirectory()
        if getLoops > 0 {
            try measureLoadedGets(executable: executable, scratch: scratch, say: say)
            return
        }
        let run = FanoutRun(executable: executable, sensor: try EmulatedAccelerometer.standard(.portrait), scratch: scratch,
                            options: orientdOption, changes: changes, settle: settle, timeout: timeout, say: say)
        var results: [FanoutResult] = []
        for count in subscribers.counts {
            for stalled in withStalledReader ? [false, true] : [false] {
                results.append(try run.measure(subscribers: count, withStalledReader: stalled))
            }
        }
        if !orientdOption.isEmpty { print("orientd run with \(orientdOption.joined(separator: " "))\n") }
        print(Report(results: results, changes: changes, settle: settle).markdown)
        say("orientd's logs are in \(scratch)")
    }

    /// The loaded-gets rows: orientd, then iio-sensor-proxy (when --iio-sensor-proxy names it),
    /// each on a fresh emulated device under the same load.
    private func measureLoadedGets(executable: String, scratch: String, say: @escaping (String) -> Void) throws {
        let count = subscribers.counts.max()!
        try FileLimit.check(connections: count + getLoops + 1)
        print("\(count) subscribers, \(getLoops) get loops, a turn every \(turnEvery.formatted()) s for \(loadSeconds.formatted()) s"
              + (orientdOption.isEmpty ? "" : ", orientd run with \(orientdOption.joined(separator: " "))") + "\n")
        // The udev property iio-sensor-proxy looks for; orientd does without it.
        let properties = ["IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"]
        var services: [(sensor: EmulatedAccelerometer, start: (EmulatedAccelerometer) throws -> any LoadedService)] = [(
            try EmulatedAccelerometer.standard(.portrait, properties: properties),
            { sensor in
                try OrientdUnderLoadedGets(executable: executable, socketPath: scratch + "/orientd.sock", maxClients: count + getLoops + 64,
                                           options: orientdOption, environment: sensor.environment, log: scratch + "/orientd-loaded-gets.log")
            }
        )]
        if let root = iioSensorProxy {
            services.append((try EmulatedAccelerometer.standard(.portrait, properties: properties), { sensor in
                try SensorProxyUnderLoadedGets(package: SensorProxyPackage(root: root), scratch: scratch, sensorEnvironment: sensor.environment, maxClients: count + getLoops)
            }))
        }
        for (sensor, start) in services {
            let service = try start(sensor)
            let run = LoadedGetsRun(sensor: sensor, timeout: timeout, turnSteps: turnSteps, say: say)
            let result = try run.measure(service, subscribers: count, loops: getLoops, interval: turnEvery, seconds: loadSeconds)
            print("**\(service.name)**\n\n" + result.markdown + "\n")
            for complaint in result.complaints { say("\(service.name): \(complaint)") }
        }
        say("the daemons' logs are in \(scratch)")
    }

    private func scratchDirectory() throws -> String {
        var template = Array("/tmp/orientd-fanout-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FanoutFailure("cannot make a scratch directory in /tmp")
        }
        return String(cString: made)
    }
}

/// A comma-separated list of subscriber counts, as in --subscribers 1,100,1000.
struct CountList: ExpressibleByArgument, CustomStringConvertible {
    let counts: [Int]

    init(_ counts: [Int]) { self.counts = counts }

    init?(argument: String) {
        let counts = argument.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 1 }) else { return nil }
        self.counts = counts.compactMap { $0 }
    }

    var description: String { counts.map(String.init).joined(separator: ",") }
    var defaultValueDescription: String { description }
}
