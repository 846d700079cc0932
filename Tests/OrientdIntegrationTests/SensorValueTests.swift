import EmulatedSensor
import Foundation
import OrientationCore
import OrientdProtocol
import ProcessHarness
import Testing

extension IntegrationTests {
    /// Values from the sensor (or about it) that are numbers, but absurd ones: a mount matrix entry
    /// of 1e19, a raw reading of 1e308, a scale of NaN. orientd neither crashes, nor lets them
    /// freeze or turn the orientation, and says what is wrong.
    @Suite struct SensorValueTests {
        // MARK: Mount matrix entries beyond any Int

        /// `--print-config` refuses the file, naming the line, instead of crashing while printing it.
        @Test func aHugeMountMatrixEntryInTheConfigIsRefusedWithItsLine() throws {
            let config = makeScratchDirectory() + "/orientd.conf"
            try "[Device \"local:\"]\nmount-matrix=1e19, 0, 0; 0, 1, 0; 0, 0, 1\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
            let result = try run("orientd", ["--config", config, "--print-config"])
            #expect(result.status == 78, "exit \(result.status): \(result.standardError)")  // EX_CONFIG, not a crash
            #expect(result.standardError.contains("\(config):2:"), "\(result.standardError)")
            #expect(result.standardError.contains("'1e19' is beyond ±1000"), "\(result.standardError)")
        }

        /// From udev and sysfs, a huge entry is a malformed matrix: logged, and the next source is taken.
        @Test func hugeMountMatrixEntriesFromTheSensorAreSkipped() throws {
            let sensor = try EmulatedAccelerometer.standard(
                .landscapeLeft, extra: ["mount_matrix": "1e19, 0, 0; 0, 1, 0; 0, 0, 1", "in_accel_mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1"],
                properties: ["ACCEL_MOUNT_MATRIX": "-1e308, 0, 0; 0, 1, 0; 0, 0, 1"])
            let daemon = try Daemon(sensor: sensor)
            #expect(daemon.process.isRunning)
            let status = try daemon.client().call("status")
            #expect(status["sensor"]?["mountMatrixSource"]?.stringValue == "sysfs in_accel_mount_matrix of iio:device0", "\(daemon.log)")
            let warnings = daemon.log.split(separator: "\n").filter { $0.contains("ignoring malformed mount matrix") }
            #expect(warnings.count == 2, "\(daemon.log)")
            #expect(warnings.contains { $0.contains("udev property ACCEL_MOUNT_MATRIX") && $0.contains("'-1e308' is beyond ±1000") })
            #expect(warnings.contains { $0.contains("sysfs mount_matrix") && $0.contains("'1e19' is beyond ±1000") })
            // landscapeLeft's (-1, 0, 0) through that matrix reads as (0, 1, 0): upside down.
            #expect(try daemon.currentOrientation() == "portraitUpsideDown")
        }

        // MARK: Raw readings no accelerometer can give

        /// 1e308 in a raw attribute is a failed read: logged once, the orientation held, no angle
        /// sample made of it, and the next turn published as fast as ever (it took a minute when
        /// the low-pass filter took it in).
        @Test func aHugeRawValueIsHeldLikeGarbageAndTheNextTurnIsPrompt() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let subscriber = try daemon.client()
            #expect(try subscriber.subscribe() == .portrait)
            let angles = try rawConnection(to: daemon)
            try angles.send(#"{"id":1,"method":"subscribe","events":["angles"]}"#)

            sensor.set("in_accel_x_raw", "1e308")
            #expect(waitUntil(timeout: 3) { daemon.log.contains("cannot use a sensor reading") }, "\(daemon.log)")
            sensor.turn(to: .landscapeLeft)
            subscriber.setReadTimeout(5)
            let turned = try #require(try subscriber.nextEvent(), "no event within 5 s of the turn")
            #expect(turned["orientation"]?.stringValue == "landscapeLeft", "\(turned)")
            #expect(turned["previous"]?.stringValue == "portrait")

            let warnings = daemon.log.split(separator: "\n").filter { $0.contains("cannot use a sensor reading") }
            #expect(warnings.count == 1, "\(daemon.log)")
            #expect(warnings.first?.contains("beyond 100 g") == true, "\(daemon.log)")
            #expect(waitUntil(timeout: 2) { daemon.log.contains("sensor readings are good again") })

            // Every angle sample, up to one showing the turn, is a whole event of finite numbers.
            var lines: [String] = []
            while lines.count < 500, let line = try angles.readText() {
                lines.append(line)
                let message = Wire.decode(Array(line.utf8))
                if message?["event"]?.stringValue == "angles", let inPlane = Self.number(message?["inPlane"]), abs(inPlane - 90) < 5 { break }
            }
            #expect(!lines.contains("{}"), "\(lines.filter { $0 == "{}" }.count) empty lines among \(lines.count)")
            #expect(lines.allSatisfy { Wire.decode(Array($0.utf8))?["event"] != nil || $0.hasPrefix("{\"id\":1") }, "\(lines)")
            #expect(lines.last.flatMap { Self.number(Wire.decode(Array($0.utf8))?["inPlane"]) }.map { abs($0 - 90) < 5 } == true,
                    "the angles never showed the turn: \(lines.suffix(3))")
        }

        private static func number(_ value: JSONValue?) -> Double? {
            switch value {
            case .number(let number)?: number
            case .integer(let number)?: Double(number)
            default: nil
            }
        }

        // MARK: Scales that cannot be used

        /// A scale present but unusable refuses the sensor with one line naming it, rather than
        /// guessing 1 (which froze the orientation) or taking a negative one (which turns it round).
        /// Clients are served meanwhile, and a good scale brings the sensor back on udev's next word.
        @Test("an unusable scale refuses the sensor until it is fixed", arguments: [
            ("nan", "'nan', not a number"),
            ("-0.01", "'-0.01', negative"),
            ("5000 nines", "its in_accel_scale cannot be read (cannot read in_accel_scale of iio:device0: File too large (27); its value is longer than 511 bytes"),
        ])
        func anUnusableScaleRefusesTheSensor(name: String, expected: String) throws {
            let scale = name == "5000 nines" ? String(repeating: "9", count: 5000) : name
            let sensor = try EmulatedAccelerometer.standard(.landscapeLeft, extra: ["in_accel_scale": scale])
            let daemon = try Daemon(sensor: sensor)
            let subscriber = try daemon.client()
            let subscribed = try subscriber.call("subscribe")
            #expect(subscribed["orientation"]?.stringValue == "unknown", "\(daemon.log)")
            #expect(subscribed["sensorAvailable"] == .bool(false))

            let status = try run("orientctl", ["status", "--json", "--socket", daemon.socketPath])
            #expect(status.status == 0, "\(status.standardError)")
            let sensorStatus = Wire.decode(Array(status.standardOutput.utf8))?["sensor"]
            #expect(sensorStatus?["available"] == .bool(false), "\(status.standardOutput)")
            let problem = sensorStatus?["problem"]?.stringValue ?? ""
            #expect(problem.contains("in_accel_scale"), "\(problem)")
            #expect(problem.contains(expected), "\(problem)")
            #expect(problem.count < 600, "\(problem)")

            let refusals = daemon.log.split(separator: "\n").filter { $0.contains("in_accel_scale") }
            #expect(refusals.count == 1, "\(daemon.log)")
            #expect(refusals.first?.contains("refusing the accelerometer iio:device0 (accel_3d)") == true, "\(daemon.log)")
            #expect(refusals.first?.contains("driver") == true)
            #expect(daemon.process.isRunning)

            sensor.set("in_accel_scale", "0.0383")
            sensor.changeProperty("ORIENTD_TEST_CHANGED", to: "1")
            var events: [JSONValue] = []
            while let event = try subscriber.nextEvent() {
                events.append(event)
                if event["orientation"] != nil { break }
            }
            #expect(events.first?["event"]?.stringValue == "sensorAvailability", "\(events)\n\(daemon.log)")
            #expect(events.first?["available"] == .bool(true))
            #expect(events.last?["orientation"]?.stringValue == "landscapeLeft", "\(events)")
        }
    }
}
