import RotateRuntime
import ArgumentParser
import Glibc
import OrientationCore
import OrientdProtocol

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the accelerometer's mount matrix when the screen turns the wrong way, and print or install its hwdb entry.",
        discussion: """
            A guided measurement in three steps. At each, orientctl says how to hold the device and \
            waits for Enter (on standard input: a pipe works too), then reads about a second of the \
            accelerometer's raw readings through orientd (the angles stream's raw member: before any \
            mount matrix). Keep the device still while it reads.

            1. Upright, screen towards you, the way it is normally used: a phone or tablet in \
            portrait; a laptop or landscape tablet standing on a desk. This must read portrait.
            2. From there, turned a quarter to the LEFT (counter-clockwise): the top edge points \
            left. This must read landscapeLeft.
            3. Lying flat on a table, screen up. This must read faceUp.

            From the three readings it derives the matrix of -1, 0 and 1 that makes each read right \
            (three, not two: some machines' matrices mirror an axis, so the third row cannot be \
            guessed). A device that moved, readings not about a quarter turn apart, or a device \
            lying flat in the wrong step are refused with what was measured and what to do.

            It prints the matrix, the exact systemd hwdb entry for this machine (udev's own key for \
            the sensor: the status result's hwdbMatch), what each way of holding the device reads \
            now and with the new matrix, and the entry to send upstream to systemd's \
            hwdb.d/60-sensor.hwdb so that every Linux on this model gets it.

            With --install (as root), it also writes the entry to \(HwdbInstall.defaultFile) \
            (keeping the file's other entries), runs 'systemd-hwdb update' and 'udevadm trigger \
            --action=change' for the sensor, and waits until 'orientctl status' shows orientd using \
            the new matrix from udev. When the matrix in force already is the one measured, it says \
            so and changes nothing. See docs/calibration.md.
            """)

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var output: JSONOption

    @Option(help: ArgumentHelp("The accelerometer to calibrate: an id from 'orientctl status'. (default: the one that drives the screen)",
                               valueName: "id"))
    var device: String?

    @Flag(help: "Write the entry to the hwdb file, reload udev and check that orientd took the new matrix (root only).")
    var install = false

    @Option(help: ArgumentHelp("The hwdb file --install writes.", valueName: "path"))
    var hwdbFile = HwdbInstall.defaultFile

    @Option(help: ArgumentHelp("Seconds measured at each step.", visibility: .hidden))
    var stepSeconds = 1.0

    @Option(help: ArgumentHelp("Seconds --install waits for orientd to take the new matrix.", visibility: .hidden))
    var confirmSeconds = 10.0

    func validate() throws {
        if !(stepSeconds > 0) { throw ValidationError("--step-seconds must be above 0") }
        if !(confirmSeconds > 0) { throw ValidationError("--confirm-seconds must be above 0") }
    }

    func run() throws {
        if install, getuid() != 0 {
            throw ClientFailure(message: "--install writes \(hwdbFile) and reloads udev, which only root may do: run 'sudo orientctl calibrate --install'")
        }
        let sensor = try chosenSensor()
        if install { try checkInstallCanWork(for: sensor) }
        let current = sensor.matrix ?? .identity
        say("Calibrating \(sensor.id ?? sensor.device) (\(sensor.device)); its mount matrix now: \(HwdbEntry.value(of: current)), from \(sensor.mountMatrixSource).")
        if sensor.mountMatrixSource.hasPrefix("config file") {
            say("Note: orientd's config file sets this matrix, and it wins over udev's hwdb: to use a new matrix, change mount-matrix there.")
        }
        var readings: [CalibrationReading] = []
        for pose in CalibrationPose.allCases {
            say("")
            say("Step \(pose.step) of 3: \(pose.instruction)")
            say("Press Enter when it is in place.")
            guard readLine() != nil else {
                throw ClientFailure(message: "standard input ended before step \(pose.step): calibrate waits for Enter before each step")
            }
            say("Measuring step \(pose.step)...")
            let samples = try RawSampling.measure(device: sensor.id, seconds: stepSeconds, options: options)
            let reading = CalibrationReading(samples: samples)!
            say("  read \(Self.vector(reading.mean)) m/s² (\(reading.sampleCount) samples, moving by up to \(Self.number(reading.spread)) m/s²)")
            do {
                try MountMatrixCalibration.check(reading, as: pose)
                if pose == .turnedLeft { try MountMatrixCalibration.checkTurn(from: readings[0], to: reading) }
            } catch {
                throw Self.refusal(error)
            }
            readings.append(reading)
        }
        let matrix: MountMatrix
        do {
            matrix = try MountMatrixCalibration.derive(upright: readings[0], turnedLeft: readings[1], flat: readings[2])
        } catch {
            throw Self.refusal(error)
        }
        say("")
        CalibrationReport.measured(matrix).forEach(say)
        if matrix == current {
            say("The sensor is already right: the matrix orientd uses (from \(sensor.mountMatrixSource)) is the one measured. Nothing to change.")
            report(matrix: matrix, sensor: sensor, alreadyRight: true, installed: false)
            return
        }
        say("")
        CalibrationReport.readings(current: current, new: matrix).forEach(say)
        say("")
        guard let match = sensor.hwdbMatch else {
            CalibrationReport.configSection(device: sensor.id ?? sensor.device, matrix: matrix).forEach(say)
            report(matrix: matrix, sensor: sensor, alreadyRight: false, installed: false)
            return
        }
        let entry = HwdbEntry(match: match, matrix: matrix)
        CalibrationReport.entry(entry).forEach(say)
        say("")
        CalibrationReport.upstream(entry).forEach(say)
        if install {
            say("")
            try installEntry(entry, key: match, sensor: sensor)
        } else {
            say("")
            say("To install it: sudo orientctl calibrate --install (or put the entry into \(HwdbInstall.defaultFile), then run "
                + "'systemd-hwdb update' and 'udevadm trigger --action=change \(sensor.syspath ?? "--subsystem-match=iio")').")
        }
        report(matrix: matrix, sensor: sensor, alreadyRight: false, installed: install)
    }

    /// What --install needs, checked before the three steps rather than after them: a sensor
    /// udev knows (a hwdb key), and systemd-hwdb and udevadm to run.
    private func checkInstallCanWork(for sensor: SensorStatus) throws {
        guard sensor.hwdbMatch != nil else {
            throw ClientFailure(message: "--install needs a local sensor that udev knows, and udev gives \(sensor.id ?? sensor.device) no hwdb key: "
                + "run 'orientctl calibrate' without --install; it prints the config file section to use instead")
        }
        let path = processEnvironment()["PATH"]
        for tool in ["systemd-hwdb", "udevadm"] where ToolProcess.locate(tool, path: path) == nil {
            throw ClientFailure(message: "--install runs \(tool), which is not on PATH (Debian package \(tool == "udevadm" ? "udev" : "systemd")): "
                + "install it, or run 'orientctl calibrate' without --install and install the entry it prints by hand")
        }
    }

    /// The accelerometer asked for, or the one that drives the screen.
    private func chosenSensor() throws -> SensorStatus {
        let (status, _) = try options.call(.status, as: StatusResult.self)
        let sensor: SensorStatus
        if let device {
            guard let found = status.devices.first(where: { $0.id == device }) else {
                let known = status.devices.compactMap(\.id)
                throw ClientFailure(message: "orientd reads no accelerometer '\(device)'; it reads: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
            }
            guard found.location != .base else {
                // Its matrix is defined against the display's (both read alike with the lid
                // opened flat), and orientd streams no angles of a base accelerometer.
                throw ClientFailure(message: "'\(device)' is a base accelerometer: calibrate measures display accelerometers only. "
                    + "A base accelerometer's matrix must make it read as the display's does with the lid opened flat (docs/conventions.md)")
            }
            sensor = found
        } else {
            sensor = status.sensor
        }
        guard sensor.available else {
            throw ClientFailure(message: "orientd has no accelerometer to calibrate: \(sensor.problem ?? "none was found")")
        }
        return sensor
    }

    private func installEntry(_ entry: HwdbEntry, key: String, sensor: SensorStatus) throws {
        try HwdbInstall.write(entry, to: hwdbFile)
        say("Wrote the entry to \(hwdbFile).")
        let target = sensor.syspath.map { [$0] } ?? ["--subsystem-match=iio"]
        let rest = "The entry is in \(hwdbFile); once that is fixed, run 'systemd-hwdb update' and 'udevadm trigger --action=change \(target.joined(separator: " "))'."
        do {
            try HwdbInstall.run("systemd-hwdb", ["update"])
        } catch let failure as ClientFailure {
            throw ClientFailure(message: failure.description + " " + rest)
        }
        // Another file, or a later pattern, may still win for this key; or the file is not read.
        let answer = try HwdbInstall.run("systemd-hwdb", ["query", key])
        let given = answer.split(separator: "\n").map { String($0.trimmingBlanks()) }.first { $0.hasPrefix(HwdbEntry.property + "=") }
        switch given {
        case entry.propertyLine:
            break
        case nil:
            throw ClientFailure(message: "after 'systemd-hwdb update' the hwdb gives this sensor's key no \(HwdbEntry.property): "
                + "systemd-hwdb reads only files named *.hwdb in /etc/udev/hwdb.d and /usr/lib/udev/hwdb.d (is \(hwdbFile) one?). "
                + "'systemd-hwdb query \(key)' shows what it gives.")
        case let other?:
            throw ClientFailure(message: "after 'systemd-hwdb update' the hwdb gives this sensor's key \(other), not \(entry.propertyLine): "
                + "another entry wins over it (look for one matching it in /etc/udev/hwdb.d and /usr/lib/udev/hwdb.d; files sort by name, "
                + "later records win). 'systemd-hwdb query \(key)' shows what it gives.")
        }
        do {
            try HwdbInstall.run("udevadm", ["trigger", "--action=change"] + target)
        } catch let failure as ClientFailure {
            throw ClientFailure(message: failure.description + " The hwdb has the entry; run the trigger again once that is fixed.")
        }
        say("Ran 'systemd-hwdb update' and 'udevadm trigger --action=change \(target.joined(separator: " "))'; waiting for orientd to take the new matrix...")
        let confirmation = MatrixConfirmation(device: sensor.id, options: options)
        if let source = confirmation.wait(for: entry.matrix, seconds: confirmSeconds) {
            say("orientd now uses \(HwdbEntry.value(of: entry.matrix)) from \(source). The screen should now turn the right way.")
            return
        }
        throw ClientFailure(message: confirmation.failure(expected: entry, seconds: confirmSeconds, syspath: sensor.syspath))
    }

    /// Lines for people: on standard output, or, with --json (which prints one result object), on standard error.
    private func say(_ line: String) {
        if output.json { Output.error(line) } else { Output.line(line) }
    }

    private func report(matrix: MountMatrix, sensor: SensorStatus, alreadyRight: Bool, installed: Bool) {
        guard output.json else { return }
        var result: [String: JSONValue] = [
            "mountMatrix": .array(matrix.rows.map { .array([.number($0.x), .number($0.y), .number($0.z)]) }),
            "value": .string(HwdbEntry.value(of: matrix)),
            "alreadyRight": .bool(alreadyRight),
            "installed": .bool(installed),
        ]
        if let id = sensor.id { result["device"] = .string(id) }
        if let match = sensor.hwdbMatch {
            result["hwdbMatch"] = .string(match)
            result["hwdbEntry"] = .string(HwdbEntry(match: match, matrix: matrix).text)
        }
        Output.line(ConnectionOptions.json(.object(result)))
    }

    private static func refusal(_ problem: CalibrationProblem) -> ClientFailure {
        ClientFailure(message: "cannot calibrate: \(problem)")
    }

    private static func vector(_ value: Vector3) -> String {
        "(\(number(value.x)), \(number(value.y)), \(number(value.z)))"
    }

    private static func number(_ value: Double) -> String { cFormat("%.2f", value) }
}
