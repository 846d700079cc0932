import EmulatedSensor
import Foundation
import OrientationCore
import OrientdProtocol
import ProcessHarness
import ScenarioCorpus
import Testing

extension IntegrationTests {
    /// `orientctl calibrate` driven through its standard input against the real daemon on an
    /// emulated accelerometer mounted wrongly: each step sets the sensor's raw values as the true
    /// mounting gives them for the pose, then presses Enter.
    @Suite struct CalibrateTests {
        /// A mirrored mounting from systemd's 60-sensor.hwdb (Acer Switch One, Asus T300FA…).
        static let truth = "0, 1, 0; 1, 0, 0; 0, 0, 1"

        /// Raw counts of a sensor mounted as `truth` with the device resting as `pose` (the
        /// inverse of a signed permutation is its transpose).
        static func rawCounts(_ pose: Orientation, mountedAs truth: MountMatrix) -> Vector3 {
            let v = MountedOrientations.restingGravity(pose) * EmulatedAccelerometer.countsPerG
            let r = truth.rows
            return Vector3(r[0].x * v.x + r[1].x * v.y + r[2].x * v.z,
                           r[0].y * v.x + r[1].y * v.y + r[2].y * v.z,
                           r[0].z * v.x + r[1].z * v.y + r[2].z * v.z)
        }

        /// A running `orientctl calibrate`, its standard error in a file.
        final class Calibration {
            let process: ChildProcess
            let errorPath: String

            init(_ daemon: Daemon, _ arguments: [String] = [], environment: [String: String] = [:]) throws {
                errorPath = daemon.directory + "/calibrate.err"
                // A fifth of a second a step (5 samples at 25 Hz, after the 0.3 s calibrate leaves out):
                // as telling as a second for a sensor that only changes when told to.
                process = try ChildProcess(Products.path("orientctl"), ["calibrate", "--socket", daemon.socketPath, "--step-seconds", "0.2"] + arguments,
                                           environment: environment, standardError: errorPath, writableInput: true)
            }

            var text: String { process.output.map(\.text).joined(separator: "\n") }
            var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

            func count(_ prefix: String) -> Int { process.output.filter { $0.text.hasPrefix(prefix) }.count }

            /// Presses Enter for the next step and waits until it was measured (or refused).
            func measure(step: Int) -> Bool {
                process.writeInput("\n")
                return waitUntil(timeout: 10) { count("  read ") >= step || !process.isRunning }
            }
        }

        @Test func measuresAWronglyMountedSensorAndPrintsItsHwdbEntry() throws {
            let truth = try MountMatrix(parsing: Self.truth)
            let sensor = try EmulatedAccelerometer.standard()
            let daemon = try Daemon(sensor: sensor)
            let calibration = try Calibration(daemon)
            for (step, pose) in [Orientation.portrait, .landscapeLeft, .faceUp].enumerated() {
                sensor.setRaw(Self.rawCounts(pose, mountedAs: truth))
                #expect(calibration.measure(step: step + 1), "step \(step + 1) was not measured:\n\(calibration.text)\n\(calibration.errors)")
            }
            #expect(calibration.process.exitStatus(timeout: 10) == 0, "\(calibration.errors)")
            let output = calibration.text
            #expect(output.contains("Measured mount matrix: \(Self.truth)"))
            #expect(output.contains("Note: this matrix mirrors one axis"))
            #expect(output.contains(EmulatedAccelerometer.hwdbMatchLine + "\n ACCEL_MOUNT_MATRIX=\(Self.truth)"))
            // Without a matrix the device held upright reads landscapeLeft; with the new one, portrait.
            #expect(output.contains("  portrait                    landscapeLeft (wrong)       portrait"))
            #expect(output.contains("  landscapeRight              portraitUpsideDown (wrong)  landscapeRight"))
            #expect(output.contains("  faceDown                    faceDown                    faceDown"))
            #expect(output.contains("sensor:modalias:acpi:BOSC0200*:dmi:*:svnOrientdTest:pnEmulatedTablet?2:*\n ACCEL_MOUNT_MATRIX=\(Self.truth)"))
            #expect(output.contains("DMI modalias: dmi:bvnLENOVO:bvrN2HET58W_1.41_:bd11/24/2026:"), "as udev passes it: \(output)")
            #expect(output.contains("systemd's hwdb.d/60-sensor.hwdb"))
        }

        @Test func refusesAMovedDeviceAFlatOneAndReadingsTooCloseTogether() throws {
            let sensor = try EmulatedAccelerometer.standard()
            let daemon = try Daemon(sensor: sensor)

            // Moved: the device swings between portrait and landscape while step 1 is measured.
            let moved = try Calibration(daemon)
            moved.process.writeInput("\n")
            #expect(waitUntil(timeout: 10) { moved.count("Measuring step 1") == 1 })
            var turned = false
            let swung = waitUntil(timeout: 10) {
                turned.toggle()
                sensor.turn(to: turned ? .landscapeLeft : .portrait)
                Thread.sleep(forTimeInterval: 0.08)
                return !moved.process.isRunning
            }
            #expect(swung)
            #expect(moved.process.exitStatus(timeout: 5) == 1)
            #expect(moved.errors.contains("cannot calibrate: step 1 (upright): the readings moved by up to"), "\(moved.errors)")
            #expect(moved.errors.contains("the device moved. Hold it still"))

            // Flat: the device lies face up from step 1; refused at step 2, before step 3 is asked.
            sensor.turn(to: .faceUp)
            let flat = try Calibration(daemon)
            for step in 1...2 { #expect(flat.measure(step: step)) }
            #expect(flat.process.exitStatus(timeout: 5) == 1)
            #expect(flat.errors.contains("the device was not turned between the steps. If it lay flat the whole time, pick it up"), "\(flat.errors)")
            #expect(flat.count("Step 3") == 0, "step 3 was asked for: \(flat.text)")

            // Too close: step 2 turned only half way (45°); refused at once too.
            sensor.turn(to: .portrait)
            let close = try Calibration(daemon)
            #expect(close.measure(step: 1))
            let portrait = EmulatedAccelerometer.rawCounts(for: .portrait), left = EmulatedAccelerometer.rawCounts(for: .landscapeLeft)
            sensor.setRaw(Vector3(((portrait.x + left.x) * 0.7071).rounded(), ((portrait.y + left.y) * 0.7071).rounded(), 0))
            #expect(close.measure(step: 2))
            #expect(close.process.exitStatus(timeout: 5) == 1)
            #expect(close.errors.contains("readings too close together: did you turn it a quarter?"), "\(close.errors)")
            #expect(close.count("Step 3") == 0, "step 3 was asked for: \(close.text)")
        }

        /// --install with stubs for systemd-hwdb and udevadm that record their arguments. When
        /// udevadm has been called, the test plays udev: the emulated device gets the new
        /// ACCEL_MOUNT_MATRIX and a `change` event, the real daemon reopens it, and calibrate's
        /// confirmation through `status` is real. The real systemd-hwdb and udevadm are not run.
        @Test func installsTheEntryAndSeesOrientdTakeIt() throws {
            let truth = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
            let sensor = try EmulatedAccelerometer.standard()
            let daemon = try Daemon(sensor: sensor)
            let hwdb = daemon.directory + "/hwdb.d/61-sensor-local.hwdb"
            let (path, record) = try Self.standIns(in: daemon, answeringFrom: hwdb)
            let other = "sensor:modalias:acpi:KIOX000A*:dmi:*:svnOther:pnTablet:*\n ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, 1, 0; 0, 0, 1\n"
            try FileManager.default.createDirectory(atPath: daemon.directory + "/hwdb.d", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: hwdb, contents: Data(other.utf8))

            let calibration = try Calibration(daemon, ["--install", "--hwdb-file", hwdb], environment: ["PATH": path])
            guard try Self.measureAsRoot(calibration, sensor, mountedAs: truth) else { return }
            let trigger = "udevadm trigger --action=change /sys\(EmulatedAccelerometer.devicePath)"
            let triggered = waitUntil(timeout: 10) {
                (try? String(contentsOfFile: record, encoding: .utf8))?.contains(trigger) == true || !calibration.process.isRunning
            }
            #expect(triggered && calibration.process.isRunning, "\(calibration.text)\n\(calibration.errors)")
            #expect(try String(contentsOfFile: record, encoding: .utf8) == "systemd-hwdb update\nsystemd-hwdb query \(EmulatedAccelerometer.hwdbMatch)\n\(trigger)\n")
            #expect(try String(contentsOfFile: hwdb, encoding: .utf8)
                == other + "\n" + EmulatedAccelerometer.hwdbMatchLine + "\n ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1\n")
            sensor.changeProperty("ACCEL_MOUNT_MATRIX", to: "0, -1, 0; 1, 0, 0; 0, 0, 1")
            #expect(calibration.process.exitStatus(timeout: 15) == 0, "\(calibration.errors)")
            #expect(calibration.text.contains("orientd now uses 0, -1, 0; 1, 0, 0; 0, 0, 1 from udev property ACCEL_MOUNT_MATRIX"),
                    "\(calibration.text)")

            // Measured again, the sensor is now right. With --json the steps go to standard
            // error and the result is one JSON object.
            let again = try Calibration(daemon, ["--json"])
            for (step, pose) in [Orientation.portrait, .landscapeLeft, .faceUp].enumerated() {
                sensor.setRaw(Self.rawCounts(pose, mountedAs: truth))
                again.process.writeInput("\n")
                #expect(waitUntil(timeout: 10) { again.errors.components(separatedBy: "\n  read ").count > step + 1 || !again.process.isRunning })
            }
            #expect(again.process.exitStatus(timeout: 10) == 0)
            #expect(again.errors.contains("The sensor is already right: the matrix orientd uses (from udev property ACCEL_MOUNT_MATRIX"),
                    "\(again.errors)")
            let result = try #require(again.process.output.last.flatMap { Wire.decode(Array($0.text.utf8)) })
            #expect(result["alreadyRight"] == .bool(true))
            #expect(result["value"] == .string("0, -1, 0; 1, 0, 0; 0, 0, 1"))
            #expect(result["hwdbMatch"] == .string(EmulatedAccelerometer.hwdbMatch))
        }

        /// A convertible's base accelerometer has the sysfs label udev's first rule keys it by; it
        /// cannot be calibrated (its matrix is defined against the display's).
        @Test func theBaseAccelerometerIsKeyedByItsLabelAndRefused() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.convertible((ConvertiblePose.laptop.display, ConvertiblePose.laptop.base)))
            let status = try daemon.client().status()
            #expect(status.devices.map(\.hwdbMatch) == [EmulatedAccelerometer.hwdbMatch,
                                                       EmulatedAccelerometer.hwdbMatch.replacingOccurrences(of: "sensor:modalias:", with: "sensor:accel-base:modalias:")])
            #expect(status.devices.map(\.syspath) == ["/sys" + EmulatedAccelerometer.devicePath, "/sys" + EmulatedAccelerometer.baseDevicePath])
            let base = try #require(status.devices.last?.id)
            let refused = try run("orientctl", ["calibrate", "--device", base, "--socket", daemon.socketPath])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains("'\(base)' is a base accelerometer: calibrate measures display accelerometers only"))
        }

        /// When `systemd-hwdb query` does not give the new matrix for the key after the update (here
        /// its stand-in gives nothing, as for a file systemd-hwdb does not read), --install says so
        /// and does not trigger udev.
        @Test func installChecksWhatTheHwdbGives() throws {
            let truth = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
            let sensor = try EmulatedAccelerometer.standard()
            let daemon = try Daemon(sensor: sensor)
            let (path, record) = try Self.standIns(in: daemon, answeringFrom: nil)
            let calibration = try Calibration(daemon, ["--install", "--hwdb-file", daemon.directory + "/local.hwdb"], environment: ["PATH": path])
            guard try Self.measureAsRoot(calibration, sensor, mountedAs: truth) else { return }
            #expect(calibration.process.exitStatus(timeout: 10) == 1)
            #expect(calibration.errors.contains("after 'systemd-hwdb update' the hwdb gives this sensor's key no ACCEL_MOUNT_MATRIX"),
                    "\(calibration.errors)")
            #expect(try String(contentsOfFile: record, encoding: .utf8) == "systemd-hwdb update\nsystemd-hwdb query \(EmulatedAccelerometer.hwdbMatch)\n")
        }

        /// Stand-ins for systemd-hwdb and udevadm in the daemon's directory that append each call
        /// to `record`; with `answeringFrom`, systemd-hwdb answers a query with that file's last
        /// matrix, as the real one would with the entry last in the last file. Returns the PATH
        /// that finds them first.
        static func standIns(in daemon: Daemon, answeringFrom hwdb: String?) throws -> (path: String, record: String) {
            let bin = daemon.directory + "/bin", record = daemon.directory + "/commands"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            for command in ["systemd-hwdb", "udevadm"] {
                let query = command == "systemd-hwdb" ? hwdb.map { "[ \"$1\" = query ] && grep '^ ACCEL_MOUNT_MATRIX=' '\($0)' | tail -n 1\n" } ?? "" : ""
                let script = "#!/bin/sh\necho \"\(command) $*\" >> '\(record)'\n" + query + "exit 0\n"
                _ = FileManager.default.createFile(atPath: "\(bin)/\(command)", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
            }
            return (bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), record)
        }

        /// Measures the three steps with the sensor mounted as `truth`; false (having checked
        /// --install's refusal) when the tests do not run as root.
        static func measureAsRoot(_ calibration: Calibration, _ sensor: EmulatedAccelerometer, mountedAs truth: MountMatrix) throws -> Bool {
            guard getuid() == 0 else {
                #expect(calibration.process.exitStatus(timeout: 10) == 1)
                #expect(calibration.errors.contains("run 'sudo orientctl calibrate --install'"))
                return false
            }
            for (step, pose) in [Orientation.portrait, .landscapeLeft, .faceUp].enumerated() {
                sensor.setRaw(rawCounts(pose, mountedAs: truth))
                #expect(calibration.measure(step: step + 1))
            }
            return true
        }

        /// Before it measures anything, --install says when it cannot work: systemd-hwdb missing
        /// (a root user's PATH without it), with the package to install.
        @Test(.enabled(if: getuid() == 0, "only root gets past the root check; installAsksForRoot covers the others"))
        func installChecksItsToolsBeforeTheSteps() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard())
            let bin = makeScratchDirectory()
            try FileManager.default.createSymbolicLink(atPath: bin + "/udevadm", withDestinationPath: "/bin/true")
            let result = try run("orientctl", ["calibrate", "--install", "--socket", daemon.socketPath], environment: ["PATH": bin])
            #expect(result.status == 1)
            #expect(result.standardError.contains("--install runs systemd-hwdb, which is not on PATH (Debian package systemd)"), "\(result.standardError)")
            #expect(!result.standardOutput.contains("Step 1"), "\(result.standardOutput)")
        }

        /// Before it measures anything, --install tells a user who is not root to use sudo.
        @Test func installAsksForRoot() throws {
            let orientctl = Products.path("orientctl")
            let finished = getuid() == 0
                ? try run(executable: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", orientctl, "calibrate", "--install"])
                : try run("orientctl", ["calibrate", "--install"])
            #expect(finished.status == 1)
            #expect(finished.standardError.contains(
                "--install writes /etc/udev/hwdb.d/61-sensor-local.hwdb and reloads udev, which only root may do: run 'sudo orientctl calibrate --install'"))
        }
    }
}
