import EmulatedSensor
import Foundation
import NIOConcurrencyHelpers
import ProcessHarness
import Testing

extension IncumbentComparisons {
    /// iio-sensor-proxy 3.9's own integration scenarios (tests/integration-test.py), each on the
    /// device its suite builds, through orientd's D-Bus face and, where it runs, Debian's 3.0 on
    /// the same device: the properties before any claim, what a claim returns, what follows.
    /// The devices and ioctl recordings are written out here from the suite's values.
    @Suite struct SensorProxySpecificationTests {
        /// A `struct input_absinfo` as umockdev's recordings spell it: value, minimum, maximum,
        /// fuzz, flat and resolution, each a little-endian 32-bit integer, in hexadecimal.
        static func absinfo(value: Int32, range: Int32 = 512) -> String {
            [value, -range, range, 0, 0, 0].map { number in
                withUnsafeBytes(of: number.littleEndian) { $0.map { String(format: "%02X", $0) }.joined() }
            }.joined()
        }

        /// test_input_accel: an input accelerometer (the suite's uinput tool, ±512, 256 per g)
        /// served only with the three EVIOCGABS its recording holds, X 0, Y -256, Z 0: the
        /// daemon runs under `umockdev-run -d DEVICE -i /dev/input/event4=RECORDING`.
        static func inputAccelerometer(in directory: String) throws -> [String] {
            let device = """
                P: /devices/virtual/input/input159/event4
                N: input/event4
                E: DEVNAME=/dev/input/event4
                E: SUBSYSTEM=input
                E: ID_INPUT=1
                E: ID_INPUT_ACCELEROMETER=1
                E: IIO_SENSOR_PROXY_TYPE=input-accel
                A: dev=13:68
                L: device=../../input159

                P: /devices/virtual/input/input159
                E: SUBSYSTEM=input
                E: NAME="iio-sensor-proxy test application"
                E: ID_INPUT=1
                E: ID_INPUT_ACCELEROMETER=1
                E: IIO_SENSOR_PROXY_TYPE=input-accel
                A: capabilities/abs=7
                A: capabilities/ev=9
                A: name=iio-sensor-proxy test application

                """
            let recording = """
                @DEV /dev/input/event4
                EVIOCGABS 0 \(absinfo(value: 0))
                EVIOCGABS(1) 0 \(absinfo(value: -256))
                EVIOCGABS(2) 0 \(absinfo(value: 0))
                EVIOCGABS(1) 0 \(absinfo(value: 256))

                """
            try device.write(toFile: directory + "/input-accel-device", atomically: true, encoding: .utf8)
            try recording.write(toFile: directory + "/input-accel-capture.ioctl", atomically: true, encoding: .utf8)
            return ["/usr/bin/umockdev-run", "-d", directory + "/input-accel-device",
                    "-i", "/dev/input/event4=" + directory + "/input-accel-capture.ioctl", "--"]
        }

        /// test_input_proximity: a phone's gpio-keys switch device, SW_FRONT_PROXIMITY in its
        /// capabilities (10e00), with a recording of two EVIOCGSW answers.
        static func inputProximity(in directory: String) throws -> [String] {
            let device = """
                P: /devices/platform/gpio_keys/input/input4/event4
                N: input/event4
                E: DEVNAME=/dev/input/event4
                E: SUBSYSTEM=input
                E: ID_INPUT=1
                E: ID_INPUT_KEY=1
                E: ID_INPUT_SWITCH=1
                A: dev=13:68
                L: device=../../input4

                P: /devices/platform/gpio_keys/input/input4
                E: SUBSYSTEM=input
                E: NAME="gpio_keys"
                E: ID_INPUT=1
                E: ID_INPUT_KEY=1
                E: ID_INPUT_SWITCH=1
                A: capabilities/sw=10e00
                A: capabilities/ev=23
                A: name=gpio_keys

                P: /devices/platform/gpio_keys
                E: SUBSYSTEM=platform
                E: DRIVER=gpio-keys

                """
            let recording = """
                @DEV /dev/input/event4
                EVIOCGSW(0) 4 00020100
                EVIOCGSW(0) 4 000A0100

                """
            try device.write(toFile: directory + "/input-proximity-device", atomically: true, encoding: .utf8)
            try recording.write(toFile: directory + "/input-proximity-ioctl", atomically: true, encoding: .utf8)
            return ["/usr/bin/umockdev-run", "-d", directory + "/input-proximity-device",
                    "-i", "/dev/input/event4=" + directory + "/input-proximity-ioctl", "--"]
        }

        /// The property as busctl prints it, once the daemon has taken the name.
        static func property(_ name: String, on bench: SensorProxyBench) -> String? {
            var value: String?
            waitUntil(timeout: 10) { value = bench.property(name); return value != nil }
            return value
        }

        /// Until orientd's name is gone from the bus: the incumbent started next must find it free,
        /// or its properties would be orientd's last answers.
        static func waitUntilTheNameIsFree(on bench: SensorProxyBench) {
            #expect(waitUntil(timeout: 10) { bench.property("HasAccelerometer") == nil }, "the name is still owned")
        }

        @Test func anInputAccelerometerServedOnlyWithTheIncumbentsIoctls() throws {
            let bench = try SensorProxyBench()
            let daemon = try bench.orientd(nil, wrapper: try Self.inputAccelerometer(in: bench.directory))
            #expect(Self.property("HasAccelerometer", on: bench) == "b true", "\(daemon.log)")
            #expect(bench.property("AccelerometerOrientation") == #"s "undefined""#)
            let claimed = try bench.python(SensorProxyTests.claimThenGet)
            #expect(claimed.standardOutput == "normal\n", "\(claimed.standardError)\n\(daemon.log)")
            #expect(!daemon.log.contains("cannot read /dev/input/event4"), "\(daemon.log)")
            daemon.stop()
            Self.waitUntilTheNameIsFree(on: bench)

            // Debian's 3.0 on the same recording reads the device when it finds it and shows the
            // value before any claim (3.9 shows `undefined`, as orientd does), and answers a claim
            // before reading (3.6 and later wait for the reading, as orientd does).
            let reference = try bench.reference(wrapper: try Self.inputAccelerometer(in: bench.directory))
            defer { reference.stop() }
            #expect(Self.property("HasAccelerometer", on: bench) == "b true")
            let referenceClaim = try bench.python(SensorProxyTests.claimThenGet + """

                import time
                for _ in range(50):
                    value = proxy.Get("net.hadess.SensorProxy", "AccelerometerOrientation", dbus_interface="org.freedesktop.DBus.Properties")
                    if value != "undefined": break
                    time.sleep(0.1)
                print(value)
                """)
            #expect(referenceClaim.standardOutput.hasSuffix("normal\n"), "\(referenceClaim.standardOutput)\(referenceClaim.standardError)")
        }

        @Test func anInputProximitySwitchIsFoundByItsCapabilities() throws {
            let bench = try SensorProxyBench()
            let daemon = try bench.orientd(nil, wrapper: try Self.inputProximity(in: bench.directory))
            #expect(Self.property("HasProximity", on: bench) == "b true", "\(daemon.log)")
            #expect(bench.property("ProximityNear") == "b false")
            // Its recording answers EVIOCGSW with 4 bytes (a 32-bit phone's); orientd asks for 8,
            // as iio-sensor-proxy 3.9 does on a 64-bit machine, and the replay has no answer: a
            // failed read, not a vanished device. (Debian's 3.0 has no input proximity driver.)
            #expect(daemon.log.contains("found the proximity sensor event4 (gpio_keys)"), "\(daemon.log)")
            #expect(!daemon.log.contains("proximity sensor is gone"), "\(daemon.log)")
        }

        /// test_hwmon_light: a platform device with a `light` file, "(128,128)", which udev marks
        /// hwmon-als (applesmc's file is on its platform device): lux and 0 before the claim, 50
        /// in vendor units once claimed, 100 when it reads "(255,255)".
        @Test func anHwmonLightOnAPlatformDevice() throws {
            func sensor() throws -> EmulatedAccelerometer {
                try EmulatedAccelerometer(onlyDevices: """
                    P: /devices/hwmon-als
                    E: SUBSYSTEM=platform
                    E: IIO_SENSOR_PROXY_TYPE=hwmon-als
                    A: light=(128,128)

                    """)
            }
            let script = """
                import dbus, time
                bus = dbus.SystemBus()
                proxy = bus.get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy")
                def get(name):
                    return proxy.Get("net.hadess.SensorProxy", name, dbus_interface="org.freedesktop.DBus.Properties")
                print(get("LightLevelUnit"), get("LightLevel"))
                proxy.ClaimLight(dbus_interface="net.hadess.SensorProxy")
                for _ in range(100):
                    if int(get("LightLevel")) == 50: break
                    time.sleep(0.1)
                print(get("LightLevelUnit"), int(get("LightLevel")))
                print("ready", flush=True)
                import sys
                sys.stdin.readline()
                for _ in range(100):
                    if int(get("LightLevel")) == 100: break
                    time.sleep(0.1)
                print(int(get("LightLevel")))
                """
            func run(on sensor: EmulatedAccelerometer, bench: SensorProxyBench) throws -> String {
                let client = try ChildProcess("/usr/bin/python3", ["-u", "-c", script], environment: bench.environment,
                                              standardError: bench.directory + "/client.log", writableInput: true)
                defer { client.stop() }
                #expect(client.waitForLine(containing: "ready", timeout: 15), "\(client.outputText)")
                let path = sensor.root + "/sys/devices/hwmon-als/light"
                try "(255,255)".write(toFile: path + ".new", atomically: false, encoding: .utf8)
                rename(path + ".new", path)
                client.writeInput("\n")
                waitUntil(timeout: 15) { client.output.count >= 4 }
                return client.output.map(\.text).filter { $0 != "ready" }.joined(separator: "\n")
            }
            let bench = try SensorProxyBench()
            let orientdSensor = try sensor()
            let daemon = try bench.orientd(orientdSensor)
            #expect(Self.property("HasAmbientLight", on: bench) == "b true", "\(daemon.log)")
            let seen = try run(on: orientdSensor, bench: bench)
            #expect(seen == "lux 0.0\nvendor 50\n100", "\(seen)\n\(daemon.log)")
            daemon.stop()
            Self.waitUntilTheNameIsFree(on: bench)

            let referenceSensor = try sensor()
            let reference = try bench.reference(referenceSensor)
            defer { reference.stop() }
            #expect(Self.property("HasAmbientLight", on: bench) == "b true")
            let referenceSeen = try run(on: referenceSensor, bench: bench)
            #expect(referenceSeen == "lux 0.0\nvendor 50\n100", "\(referenceSeen)")
        }
    }
}

extension IncumbentComparisons.SensorProxySpecificationTests {
    /// One step of a scenario, as the suite writes it.
    enum Step: Sendable {
        /// `Get` at once (after a claim too: 3.6 and later answer a claim once the sensor was read).
        case get(String, String)
        /// `Get` until it reads so, for five seconds (the suite's assertEventually).
        case eventually(String, String)
        case claim(String)
        /// A sysfs file of the device is written, as the kernel changes it.
        case set(String, String)
        /// A sysfs file of the device reads so (what the daemon wrote into it).
        case file(String, String)
        /// A sysfs file holds exactly these bytes, as the suite reads them (read_sysfs_attr).
        case exactly(String, String)
        /// The device's buffer yields scans of these raw x, y, z from now on.
        case scans(Int16, Int16, Int16)
    }

    /// One of the suite's scenarios: the IIO device it adds (attributes and udev properties),
    /// whether its buffer is a FIFO the test fills, the daemon's environment, the steps.
    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        var attributes: [String: String]
        var properties: [String: String]
        var otherDevices = ""
        var buffered = false
        var environment: [String: String] = [:]
        let steps: [Step]
        var testDescription: String { name }
    }

    static let pollAccelerometer = ["in_accel_x_raw": "0", "in_accel_y_raw": "-25.6", "in_accel_z_raw": "0", "in_accel_scale": "10",
                                    "sampling_frequency": "5.2", "name": "IIO Test Accelerometer"]
    static let accelerometerType = ["NAME": "\"IIO Accelerometer\"", "IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"]
    static let proximity = ["in_proximity_nearlevel": "128", "name": "IIO Test Proximity Sensor"]
    static let proximityType = ["NAME": "\"IIO Proximity Sensor\"", "IIO_SENSOR_PROXY_TYPE": "iio-poll-proximity"]
    /// The suite's buffered accelerometer: x, y, z as le:s16/32, a timestamp, no scale.
    static let bufferAccelerometer: [String: String] = {
        var attributes = ["name": "IIO Test Accelerometer", "buffer/enable": "0", "trigger/current_trigger": ""]
        for (index, channel) in ["accel_x", "accel_y", "accel_z", "timestamp"].enumerated() {
            attributes["scan_elements/in_\(channel)_en"] = "0"
            attributes["scan_elements/in_\(channel)_index"] = String(index)
            attributes["scan_elements/in_\(channel)_type"] = channel == "timestamp" ? "le:s64/64>>0" : "le:s16/32>>0"
        }
        return attributes
    }()
    static let bufferType = ["NAME": "\"IIO Accelerometer\"", "IIO_SENSOR_PROXY_TYPE": "iio-buffer-accel"]
    static let trigger = "P: /devices/platform/orientd-test/trigger0\nE: SUBSYSTEM=iio\nA: name=accel_3d-dev0\\n\n"
    /// The suite's recorded scans: its orientation-normal.bin and the last of orientation-left-up.bin.
    static let normalScan: Step = .scans(103, -919, -385)
    static let leftUpScan: Step = .scans(840, -238, -201)
    static let french = ["LC_NUMERIC": "fr_FR.UTF-8", "LC_ALL": "fr_FR.UTF-8"]

    /// test_iio_poll_proximity and its twin for `in_proximity0_raw`: far before the claim, near
    /// at 256, far at 0, near again at 129 and still near at 127 (within the margin).
    static func proximityScenario(_ name: String, raw file: String) -> Scenario {
        Scenario(name: name, attributes: proximity.merging([file: "256"]) { $1 }, properties: proximityType, steps: [
            .get("HasAmbientLight", "false"), .get("HasAccelerometer", "false"), .get("HasProximity", "true"),
            .get("ProximityNear", "false"),
            .claim("Proximity"), .get("ProximityNear", "true"),
            .set(file, "0"), .eventually("ProximityNear", "false"),
            .set(file, "129"), .eventually("ProximityNear", "true"),
            .set(file, "127"), .eventually("ProximityNear", "true"),
        ])
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "test_iio_poll_accel", attributes: pollAccelerometer, properties: accelerometerType, steps: [
            .get("HasAmbientLight", "false"), .get("HasAccelerometer", "true"),
            .get("AccelerometerOrientation", "undefined"), .get("AccelerometerTilt", "undefined"),
            .exactly("sampling_frequency", "10"),
            .claim("Accelerometer"), .get("AccelerometerOrientation", "normal"), .get("AccelerometerTilt", "vertical"),
            .set("in_accel_x_raw", "-25.6"), .set("in_accel_y_raw", "0"), .eventually("AccelerometerOrientation", "right-up"),
            .set("in_accel_z_raw", "-25.6"), .eventually("AccelerometerTilt", "tilted-down"),
            .set("in_accel_z_raw", "72.4"), .eventually("AccelerometerTilt", "face-up"),
        ]),
        Scenario(name: "test_iio_poll_light",
                 attributes: ["integration_time": "1", "in_illuminance_input": "10", "in_illuminance_scale": "1.0"],
                 properties: ["NAME": "\"IIO Light Sensor\"", "IIO_SENSOR_PROXY_TYPE": "iio-poll-als"], steps: [
            .get("HasAmbientLight", "true"), .get("HasAccelerometer", "false"),
            .get("LightLevelUnit", "lux"), .get("LightLevel", "0"),
            .claim("Light"), .get("LightLevel", "10"), .get("LightLevelUnit", "lux"),
            .set("in_illuminance_input", "30"), .eventually("LightLevel", "30"),
        ]),
        proximityScenario("test_iio_poll_proximity", raw: "in_proximity_raw"),
        proximityScenario("test_iio_poll_proximity0", raw: "in_proximity0_raw"),
        Scenario(name: "test_iio_buffer_accel", attributes: bufferAccelerometer, properties: bufferType, otherDevices: trigger,
                 buffered: true, steps: [
            normalScan,
            .get("HasAmbientLight", "false"), .get("HasAccelerometer", "true"),
            .get("AccelerometerOrientation", "undefined"), .file("buffer/enable", "0"),
            .claim("Accelerometer"), .eventually("AccelerometerOrientation", "normal"),
            .file("buffer/enable", "1"), .file("scan_elements/in_accel_x_en", "1"),
            .file("scan_elements/in_accel_y_en", "1"), .file("scan_elements/in_accel_z_en", "1"),
            leftUpScan, .eventually("AccelerometerOrientation", "left-up"),
            normalScan, .eventually("AccelerometerOrientation", "normal"),
        ]),
        Scenario(name: "test_driver_buffer_without_trigger",
                 attributes: bufferAccelerometer.filter { $0.key != "trigger/current_trigger" }, properties: bufferType,
                 buffered: true, steps: [
            normalScan, .get("HasAmbientLight", "false"), .get("HasAccelerometer", "true"),
            .claim("Accelerometer"), .eventually("AccelerometerOrientation", "normal"),
        ]),
        Scenario(name: "test_iio_broken_buffer_accel", attributes: bufferAccelerometer,
                 properties: ["NAME": "\"IIO Accelerometer\"", "IIO_SENSOR_PROXY_TYPE": "iio-buffer-accel iio-poll-accel"],
                 otherDevices: trigger, steps: [
            .get("HasAccelerometer", "true"),
        ]),
        Scenario(name: "test_iio_scale_decimal_separator",
                 attributes: bufferAccelerometer.merging(["in_accel_scale": "0.000010", "in_accel_offset": "0.0",
                                                          "in_accel_mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1"]) { $1 },
                 properties: bufferType, otherDevices: trigger, buffered: true, environment: french, steps: [
            normalScan, .get("HasAccelerometer", "true"), .claim("Accelerometer"),
        ]),
        Scenario(name: "test_iio_scale_decimal_separator_offset",
                 attributes: bufferAccelerometer.merging(["in_accel_scale": "0.000010", "in_accel_x_offset": "0.0",
                                                          "in_accel_mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1"]) { $1 },
                 properties: bufferType, otherDevices: trigger, buffered: true, environment: french, steps: [
            normalScan, .get("HasAccelerometer", "true"),
        ]),
        Scenario(name: "test_sampling_freq_available_integer",
                 attributes: ["in_accel_x_raw": "0", "in_accel_y_raw": "-256000000", "in_accel_z_raw": "0", "in_accel_scale": "0.000001",
                              "sampling_frequency": "5.2", "sampling_frequency_available": "3 6 12 25 50 100 200 400 800 1600",
                              "name": "IIO Test Accelerometer"],
                 properties: accelerometerType, steps: [
            .get("HasAccelerometer", "true"), .exactly("sampling_frequency", "12"),
        ]),
        Scenario(name: "test_sampling_freq_available_double",
                 attributes: ["in_accel_x_raw": "0", "in_accel_y_raw": "-256000000", "in_accel_z_raw": "0", "in_accel_scale": "0.000001",
                              "sampling_frequency": "5.2",
                              "sampling_frequency_available": "800.000000 400.000000 200.000000 100.000000 50.000000 12.500000 6.250000 1.560000",
                              "name": "IIO Test Accelerometer"],
                 properties: accelerometerType, steps: [
            .get("HasAccelerometer", "true"), .exactly("sampling_frequency", "12.5"),
        ]),
        Scenario(name: "test_iio_scale_decimal_separator2",
                 attributes: ["in_accel_x_raw": "0", "in_accel_y_raw": "-256000000", "in_accel_z_raw": "0", "in_accel_scale": "0.000001",
                              "sampling_frequency": "5.2", "name": "IIO Test Accelerometer"],
                 properties: accelerometerType, environment: french, steps: [
            .claim("Accelerometer"), .get("AccelerometerOrientation", "normal"),
            .set("in_accel_x_raw", "-256000000"), .set("in_accel_y_raw", "0"), .eventually("AccelerometerOrientation", "right-up"),
        ]),
    ]

    /// Runs at once: each run is a daemon, a private bus and a client of its own, mostly waiting
    /// for polls (the suite is serialized; one at a time took a minute and a half).
    static let atOnce = 12

    /// Every scenario on orientd's D-Bus face, where every step must hold, and on Debian's
    /// iio-sensor-proxy 3.0 beside it, where the steps `incumbentDifferences` names must fail
    /// and no other (so the comparison stays true: a 3.0 that changed would show).
    @Test func theSuitesScenariosOnOrientdAndOnIioSensorProxy() throws {
        try #require(Reference.isUnpacked, "iio-sensor-proxy is not in .build/iio-sensor-proxy: run scripts/setup")
        let results = onOrientdAndIncumbent(Self.scenarios, atOnce: Self.atOnce) { scenario, incumbent in
            try Self.run(scenario, reference: incumbent)
        }
        for (scenario, result) in zip(Self.scenarios, results) {
            #expect(result.orientd.isEmpty, "\(scenario.name) on orientd:\n\(result.orientd.joined(separator: "\n"))")
            let failedSteps = Set(result.incumbent.compactMap { $0.hasPrefix("step ") ? Int($0.dropFirst(5).prefix { $0.isNumber }) : nil })
            let expected = Set((Self.incumbentDifferences[scenario.name] ?? [:]).keys)
            #expect(failedSteps == expected && !result.incumbent.contains { !$0.hasPrefix("step ") && !$0.hasPrefix("log:") },
                    "\(scenario.name) on iio-sensor-proxy 3.0:\n\(result.incumbent.joined(separator: "\n"))")
        }
    }

    /// Runs `scenario` on orientd or (`reference`) on Debian's iio-sensor-proxy 3.0; returns each
    /// step that did not hold, with the daemon's log.
    static func run(_ scenario: Scenario, reference: Bool) throws -> [String] {
        let sensor = try EmulatedAccelerometer(attributes: scenario.attributes, properties: scenario.properties,
                                               otherDevices: scenario.otherDevices)
        let scans = ScanStream(sensor)
        defer { scans.stop() }
        if scenario.buffered { try sensor.makeScanFIFO() }
        let bench = try SensorProxyBench()
        let daemon: Daemon?
        let referenceDaemon: ChildProcess?
        if reference {
            daemon = nil
            referenceDaemon = try ChildProcess(Reference.daemon, [], environment: sensor.environment.merging(bench.environment) { $1 }
                .merging(scenario.environment) { $1 }, standardError: bench.directory + "/iio-sensor-proxy.log")
        } else {
            daemon = try Daemon(sensor: sensor, arguments: ["--sensor-proxy", "--no-sensor-proxy-polkit"],
                                environment: bench.environment.merging(scenario.environment) { $1 })
            referenceDaemon = nil
        }
        defer { referenceDaemon?.stop() }
        var log: String {
            daemon?.log ?? ((try? String(contentsOfFile: bench.directory + "/iio-sensor-proxy.log", encoding: .utf8)) ?? "")
        }
        var failures: [String] = []
        if Self.property("HasAccelerometer", on: bench) == nil { failures.append("the daemon never took its name") }
        let client = try ProxyClaimer(on: bench)
        let ask = client.ask
        for (index, step) in scenario.steps.enumerated() {
            switch step {
            case .get(let name, let expected):
                let value = ask("get \(name)")
                if value != expected { failures.append("step \(index): \(name) is \(value ?? "unanswered"), not \(expected)") }
            case .eventually(let name, let expected):
                var value: String?
                let reached = waitUntil(timeout: 5, every: 0.1) { value = ask("get \(name)"); return value == expected }
                if !reached { failures.append("step \(index): \(name) is \(value ?? "unanswered"), not \(expected) after 5 s") }
            case .claim(let sensorName):
                let answer = ask("claim \(sensorName)")
                if answer != "claimed" { failures.append("step \(index): the claim of \(sensorName) was answered \(answer ?? "never")") }
            case .set(let file, let value):
                sensor.set(file, value)
            case .file(let file, let expected):
                let reached = waitUntil(timeout: 5) { sensor.value(of: file) == expected }
                if !reached { failures.append("step \(index): \(file) is \(sensor.value(of: file) ?? "missing"), not \(expected)") }
            case .exactly(let file, let expected):
                let reached = waitUntil(timeout: 5) { sensor.bytes(of: file) == Array(expected.utf8) }
                if !reached { failures.append("step \(index): \(file) holds \(sensor.bytes(of: file).map { "\($0)" } ?? "nothing"), not \(expected)") }
            case .scans(let x, let y, let z):
                scans.stream(x, y, z)
            }
        }
        if let daemon, !daemon.process.isRunning { failures.append("orientd ended") }
        if let referenceDaemon, !referenceDaemon.isRunning { failures.append("iio-sensor-proxy ended") }
        return failures.isEmpty ? [] : failures + ["log:\n\(log)"]
    }

    /// Where Debian's iio-sensor-proxy 3.0 does not do what 3.9 specifies, by scenario and step,
    /// and why: what orientd does that 3.0 does not.
    static let incumbentDifferences: [String: [Int: String]] = {
        let answersBeforeReading = "3.0 answers a claim before reading the sensor (3.6 and later wait, as orientd does)"
        let noTilt = "3.0 has no AccelerometerTilt (3.6)"
        let noAvailableList = "3.0 writes 10 Hz whatever sampling_frequency_available lists"
        return [
            "test_iio_poll_accel": [3: noTilt, 6: answersBeforeReading, 7: noTilt, 12: noTilt, 14: noTilt],
            "test_iio_poll_light": [5: answersBeforeReading],
            "test_iio_poll_proximity": [5: answersBeforeReading],
            "test_iio_poll_proximity0": [5: answersBeforeReading, 9: "3.0 reads in_proximity_raw only", 11: "3.0 reads in_proximity_raw only"],
            "test_iio_buffer_accel": [4: "3.0 leaves the buffer enabled from its discovery until a claim"],
            "test_driver_buffer_without_trigger": [4: "3.0 cannot read a buffer without a trigger"],
            "test_sampling_freq_available_integer": [1: noAvailableList],
            "test_sampling_freq_available_double": [1: noAvailableList],
            "test_iio_scale_decimal_separator2": [1: answersBeforeReading],
        ]
    }()

}

/// The suite's buffered accelerometer capturing at 50 Hz: each scan x, y, z as le:s16/32, then a
/// le:s64 timestamp, into the device node's FIFO, from the first `stream` on.
final class ScanStream: @unchecked Sendable {
    private let raw = NIOLockedValueBox<(Int16, Int16, Int16)?>(nil)
    private var capture: CapturingThread?

    init(_ sensor: EmulatedAccelerometer) {
        let raw = self.raw
        capture = CapturingThread { nanoseconds in
            guard let (x, y, z) = raw.withLockedValue({ $0 }) else { return }
            var bytes: [UInt8] = []
            for value in [Int32(x), Int32(y), Int32(z), 0] { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
            bytes += withUnsafeBytes(of: nanoseconds.littleEndian, Array.init)
            sensor.appendScanBytes(bytes)
        }
    }

    func stream(_ x: Int16, _ y: Int16, _ z: Int16) { raw.withLockedValue { $0 = (x, y, z) } }

    func stop() { capture?.stop() }
}
