import EmulatedSensor
import Foundation
import OrientdProtocol
import ProcessHarness
import OrientationCore
import Testing

extension IntegrationTests {
    @Suite struct SensorSetupTests {
        /// A malformed udev matrix is logged with its source and text, and the sysfs one is used.
        /// With the identity this reading would be landscapeRight; with the sysfs matrix it is portrait.
        @Test func malformedMatrixFallsBackToTheNextSource() throws {
            let sensor = try EmulatedAccelerometer(
                attributes: [
                    "name": "accel_3d", "in_accel_x_raw": "523", "in_accel_y_raw": "13", "in_accel_z_raw": "5",
                    "in_accel_scale": "0.019163", "mount_matrix": "0, -1, 0; -1, 0, 0; 0, 0, 1",
                ],
                properties: ["ACCEL_MOUNT_MATRIX": "0, 0, 0; 0, 1, 0; 0, 0, 1"])
            let daemon = try Daemon(sensor: sensor)
            #expect(try daemon.currentOrientation() == "portrait")
            let warning = daemon.log.split(separator: "\n").first { $0.contains("malformed mount matrix") }
            #expect(warning?.contains("udev property ACCEL_MOUNT_MATRIX") == true)
            #expect(warning?.contains("'0, 0, 0; 0, 1, 0; 0, 0, 1'") == true)
            #expect(warning?.contains("row 1 is all zeros") == true)
            #expect(daemon.log.contains("from sysfs mount_matrix of iio:device0"))
        }

        @Test("slow sensors are raised to at least 10 Hz", arguments: [
            ("5.2", "3 6 12 25 50 100 200 400 800 1600", "12"),
            ("6.250000", "800.000000 400.000000 200.000000 100.000000 50.000000 25.000000 12.500000 6.250000 1.560000", "12.5"),
            ("5.2", nil, "10"),
            ("50", "3 6 12 25 50", "50"),
        ])
        func samplingFrequencyIsRaised(current: String, available: String?, expected: String) throws {
            var extra = ["sampling_frequency": current]
            extra["sampling_frequency_available"] = available
            let sensor = try EmulatedAccelerometer.standard(extra: extra)
            let daemon = try Daemon(sensor: sensor)
            #expect(sensor.value(of: "sampling_frequency") == expected, "\(daemon.log)")
        }

        @Test func displayAccelerometerIsPreferredOverTheBase() throws {
            // iio:device0 (udev: base) reads landscapeRight; iio:device1 (label: accel-display) reads portrait.
            let sensor = try EmulatedAccelerometer(
                attributes: ["name": "accel_3d", "in_accel_x_raw": "256", "in_accel_y_raw": "0", "in_accel_z_raw": "0"],
                properties: ["ACCEL_LOCATION": "base"],
                otherDevices: """
                    P: /devices/platform/display-accel/iio:device1
                    N: iio:device1
                    E: SUBSYSTEM=iio
                    A: name=accel_3d\\n
                    A: label=accel-display\\n
                    A: in_accel_x_raw=0\\n
                    A: in_accel_y_raw=-256\\n
                    A: in_accel_z_raw=0\\n

                    """)
            let daemon = try Daemon(sensor: sensor)
            #expect(try daemon.currentOrientation() == "portrait")
            #expect(daemon.log.contains("reading iio:device1"))
        }

        /// libiio builds its local context all or nothing: one unrelated device with a scan element
        /// it cannot parse (an ADC with an empty `_index`, iio:device5) fails it as a whole. The good
        /// accelerometer and light sensor beside it are still served (read from sysfs, polled), and
        /// one warning names the device at fault.
        @Test func aMalformedNeighbourDoesNotHideTheGoodSensors() throws {
            let sensor = try EmulatedAccelerometer(
                attributes: EmulatedAccelerometer.standardAttributes(.landscapeLeft),
                otherDevices: EmulatedAccelerometer.lightSensor(lux: 12) + "\n" + """
                    P: /devices/platform/adc/iio:device5
                    N: iio:device5
                    E: SUBSYSTEM=iio
                    A: name=adc\\n
                    A: in_voltage0_raw=5\\n
                    A: scan_elements/in_voltage0_en=0\\n
                    A: scan_elements/in_voltage0_index=\\n
                    A: scan_elements/in_voltage0_type=le:s16/16>>0\\n

                    """)
            let daemon = try Daemon(sensor: sensor)
            #expect(try daemon.currentOrientation() == "landscapeLeft", "\(daemon.log)")
            let warnings = daemon.log.split(separator: "\n").filter { $0.hasPrefix("orientd: warning:") }
            #expect(warnings.count == 1, "\(daemon.log)")
            #expect(warnings.first?.contains("iio:device5 (adc) has an empty scan_elements/in_voltage0_index") == true, "\(daemon.log)")
            #expect(!daemon.log.contains("is readable"), "\(daemon.log)")
            sensor.turn(to: .portrait)
            #expect(waitUntil(timeout: 10) { (try? daemon.currentOrientation()) == "portrait" }, "\(daemon.log)")
            let status = try daemon.client().call("status")
            #expect(status["light"]?["device"] == .string("iio:device1 (als)"), "\(daemon.log)")
        }

        /// The socket is bound before the sensor is touched: a bad --socket fails in one plain
        /// sentence and leaves the sensor's sampling_frequency alone.
        @Test("bad --socket paths are one plain sentence", arguments: [
            ("/nonexistent/dir/orientd.sock", "the directory /nonexistent/dir does not exist"),
            ("/etc/hostname", "something that is not a socket is in the way"),
        ])
        func badSocketPath(path: String, explanation: String) throws {
            let sensor = try EmulatedAccelerometer.standard(extra: ["sampling_frequency": "5.2"])
            let daemon = try Daemon(sensor: sensor, arguments: ["--socket", path], waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !daemon.process.isRunning })
            #expect(daemon.stop() != 0)
            let lines = daemon.log.split(separator: "\n")
            #expect(lines.count == 1, "\(daemon.log)")
            #expect(lines.first == "orientd: error: cannot listen on \(path): \(explanation)" ||
                    lines.first?.hasPrefix("orientd: error: cannot listen on \(path): \(explanation)") == true, "\(daemon.log)")
            #expect(sensor.value(of: "sampling_frequency") == "5.2")
        }

        @Test func aSocketPathTooLongIsRefusedAsConfiguration() throws {
            let sensor = try EmulatedAccelerometer.standard(extra: ["sampling_frequency": "5.2"])
            let path = "/tmp/" + String(repeating: "s", count: 120) + ".sock"
            let daemon = try Daemon(sensor: sensor, arguments: ["--socket", path], waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !daemon.process.isRunning })
            #expect(daemon.stop() != 0)
            #expect(daemon.log.hasPrefix("orientd: error: --socket: a Unix socket path holds at most 107 bytes; this one has 130\n"), "\(daemon.log)")
            #expect(sensor.value(of: "sampling_frequency") == "5.2")
        }

        @Test func aMalformedURIIsRefusedAsConfiguration() throws {
            let daemon = try Daemon(sensor: nil, arguments: ["--uri", "bogus:"], waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !daemon.process.isRunning })
            #expect(daemon.stop() == 78)
            #expect(daemon.log.hasPrefix("orientd: error: --uri: expected 'local:' or 'ip:HOST[:PORT]', got 'bogus:'"), "\(daemon.log)")
        }

        /// An unreachable board is not fatal: orientd serves, says what to check, and keeps trying.
        @Test func anUnreachableBoardIsWaitedFor() throws {
            let daemon = try Daemon(sensor: nil, arguments: ["--uri", "ip:127.0.0.1:1"])
            let warnings = daemon.log.split(separator: "\n").filter { $0.hasPrefix("orientd: warning:") }
            #expect(warnings.first?.hasPrefix("orientd: warning: cannot open IIO context 'ip:127.0.0.1:1'") == true, "\(daemon.log)")
            #expect(daemon.log.contains("is iiod running on that host and reachable?"), "\(daemon.log)")
            let status = try daemon.client().call("status")
            #expect(status["sensor"]?["available"] == .bool(false))
            #expect(status["sensor"]?["problem"]?.stringValue?.contains("ip:127.0.0.1:1") == true)
        }

        /// A board that takes the connection and never answers (libiio waits 5 s for it) does not
        /// hold up the clients: orientd serves at once, `get` says unknown and `status` why,
        /// while libiio is still waiting (its failure is not in the log yet).
        @Test func aSilentBoardDoesNotHoldUpTheClients() throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(listener) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try withUnsafeMutablePointer(to: &address) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    try #require(bind(listener, raw, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, raw, &length) == 0)
                }
            }
            let uri = "ip:127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
            // Connections wait in the backlog, accepted by the kernel and never answered.
            let daemon = try Daemon(sensor: nil, arguments: ["--uri", uri])
            let get = try run("orientctl", ["get", "--socket", daemon.socketPath])
            let status = try daemon.client().call("status")
            let gaveUp = daemon.log.contains("cannot open IIO context")
            #expect(get.standardOutput == "unknown\n", "\(get.standardError)")
            // "unknown" alone does not say why: standard error points at status.
            #expect(get.standardError.contains("'orientctl status' says which"), "\(get.standardError)")
            #expect(status["sensor"]?["problem"]?.stringValue?.contains("connecting to \(uri): no answer yet") == true, "\(status)")
            #expect(!gaveUp, "answered only once libiio gave up:\n\(daemon.log)")
            #expect(daemon.log.contains("\(uri) has not answered within half a second; serving meanwhile"), "\(daemon.log)")
            // Nor does it hold up orientd's exit: the thread stuck in libiio is left to the process's end.
            #expect(daemon.stop() == 0)
            #expect(daemon.log.contains("thread is still waiting on its sensor (a board that does not answer); not waiting for it"), "\(daemon.log)")
        }

        /// `status` without a sensor says where it looked and why there is none, and shows nothing
        /// of a sensor it does not have; beside a board that answers, the dead one is listed by
        /// its URI with its reason.
        @Test func statusTextSaysWhyThereIsNoSensor() throws {
            // A context that cannot open says why once libiio has given up, which may be after
            // orientd serves (its start waits 0.5 s for a sensor at most).
            func status(of daemon: Daemon, once expected: String) throws -> String {
                var text = ""
                _ = waitUntil(timeout: 5, every: 0.1) {
                    text = (try? run("orientctl", ["status", "--socket", daemon.socketPath]).standardOutput) ?? ""
                    return text.contains(expected)
                }
                return text
            }
            let alone = try Daemon(sensor: nil, arguments: ["--uri", "ip:127.0.0.1:1"])
            let text = try status(of: alone, once: "cannot open IIO context")
            #expect(text.contains("sensor:        none at ip:127.0.0.1:1 — cannot open IIO context 'ip:127.0.0.1:1'"), "\(text)")
            #expect(text.contains("orientd waits for one"), "\(text)")
            for absent in ["reading:", "mount matrix:", "at  (", "from \n", "0 times a second"] {
                #expect(!text.contains(absent), "'\(absent)' in:\n\(text)")
            }

            let both = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--uri", "local:", "--uri", "ip:127.0.0.1:1"])
            let listed = try status(of: both, once: "cannot open IIO context")
            #expect(listed.contains("sensor:        iio:device0 (accel_3d) in the display, id local:/accel_3d, at local:"), "\(listed)")
            #expect(listed.contains("\n  none at ip:127.0.0.1:1 — cannot open IIO context 'ip:127.0.0.1:1'"), "\(listed)")
        }

        /// No accelerometer: one clear line that says what was seen, then orientd waits for one
        /// (HotplugTests shows it reading one that appears).
        @Test func noAccelerometerIsOneClearLine() throws {
            let testbed = try EmulatedAccelerometer.lightSensorOnly()
            let daemon = try Daemon(sensor: testbed)
            Thread.sleep(forTimeInterval: 1.5)
            #expect(daemon.process.isRunning)
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("no accelerometer") }
            #expect(lines.count == 1, "\(daemon.log)")
            #expect(lines.first?.hasPrefix("orientd: warning: no accelerometer") == true)
            #expect(lines.first?.contains("IIO context 'local:'") == true)
            #expect(lines.first?.contains("iio:device1 (als)") == true)
            #expect(lines.first?.contains("waiting for an accelerometer") == true)
        }
    }
}
