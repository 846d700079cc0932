import EmulatedSensor
import Foundation
@testable import OrientdClient
import OrientdProtocol
import ProcessHarness
import Testing

extension IntegrationTests {
    /// orientd as systemd runs it: the units, their hardening, socket activation, sd_notify, the
    /// journal's log format and what clients hear when it stops.
    @Suite struct SystemdTests {
        static var root: String { URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path }

        @Test func theUnitsVerify() throws {
            // The unit names /usr/bin/orientd; point it at the binary just built so verify can check it.
            let scratch = makeScratchDirectory()
            let service = try String(contentsOfFile: Self.root + "/systemd/orientd.service", encoding: .utf8)
                .replacingOccurrences(of: "ExecStart=/usr/bin/orientd", with: "ExecStart=\(Products.path("orientd"))")
            try service.write(toFile: scratch + "/orientd.service", atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(atPath: Self.root + "/systemd/orientd.socket", toPath: scratch + "/orientd.socket")
            let verify = try run(executable: "/usr/bin/systemd-analyze",
                                 ["verify", "--man=no", scratch + "/orientd.service", scratch + "/orientd.socket"])
            #expect(verify.status == 0, "\(verify.standardError)")
            #expect(verify.standardError.isEmpty, "\(verify.standardError)")
        }

        /// The user unit of `orientctl rotate` verifies as a user manager reads it, and starts with the
        /// graphical session.
        @Test func theRotateUserUnitVerifies() throws {
            let scratch = makeScratchDirectory()
            chmod(scratch, 0o700)
            let unit = try String(contentsOfFile: Self.root + "/systemd/orientd-rotate.service", encoding: .utf8)
            #expect(unit.contains("\nExecStart=/usr/bin/orientctl rotate\n"))
            #expect(unit.contains("\nWantedBy=graphical-session.target\n") && unit.contains("\nPartOf=graphical-session.target\n"))
            try unit.replacingOccurrences(of: "ExecStart=/usr/bin/orientctl", with: "ExecStart=\(Products.path("orientctl"))")
                .write(toFile: scratch + "/orientd-rotate.service", atomically: true, encoding: .utf8)
            let verify = try run(executable: "/usr/bin/systemd-analyze", ["verify", "--user", "--man=no", scratch + "/orientd-rotate.service"],
                                 environment: ["XDG_RUNTIME_DIR": scratch])
            #expect(verify.status == 0, "\(verify.standardError)")
            #expect(verify.standardError.isEmpty, "\(verify.standardError)")
        }

        /// The unit takes iio-sensor-proxy's place: it names the bus name it serves (systemd only
        /// notes it: readiness stays READY=1), starts after the bus's socket, and one of the two
        /// services stops when the other starts.
        @Test func theServiceTakesIioSensorProxysPlace() throws {
            let service = try String(contentsOfFile: Self.root + "/systemd/orientd.service", encoding: .utf8)
            let lines = Set(service.split(separator: "\n").map(String.init))
            for line in ["Type=notify", "BusName=net.hadess.SensorProxy", "Conflicts=iio-sensor-proxy.service",
                         "After=orientd.socket dbus.socket", "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6"] {
                #expect(lines.contains(line), "orientd.service has no line '\(line)'")
            }
        }

        /// udev starts orientd for every sensor it serves, and both units' conditions let it run
        /// on a machine with only that sensor: the rule's TEST files and the units' globs agree.
        @Test func theUdevRuleAndTheUnitsConditionsNameTheSameSensors() throws {
            let rule = try String(contentsOfFile: Self.root + "/udev/61-orientd.rules", encoding: .utf8)
            // Each rule line as the path its unit condition globs: IIO devices' files, hwmon devices'.
            let tested = rule.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> String? in
                if let match = line.firstMatch(of: /^TEST=="([^"]+)", TAG\+="systemd", ENV\{SYSTEMD_WANTS\}\+="orientd.service"$/) {
                    return "/sys/bus/iio/devices/iio:device*/" + match.1
                }
                if let match = line.firstMatch(of: /^SUBSYSTEM=="hwmon", TEST=="([^"]+)", TAG\+="systemd", ENV\{SYSTEMD_WANTS\}\+="orientd.service"$/) {
                    return "/sys/class/hwmon/hwmon*/" + match.1
                }
                if let match = line.firstMatch(of: /^SUBSYSTEM=="input", .*SYMLINK\+="([^"]+)%k", TAG\+="systemd", ENV\{SYSTEMD_WANTS\}\+="orientd.service"$/) {
                    return "/dev/" + match.1 + "*"
                }
                return nil
            }
            for sensor in ["in_accel_x_raw", "scan_elements/in_accel_x_en", "in_illuminance_input", "in_illuminance0_input",
                           "in_illuminance_raw", "in_intensity_clear_raw", "in_proximity_raw"] {
                #expect(tested.contains("/sys/bus/iio/devices/iio:device*/" + sensor), "61-orientd.rules does not start orientd for \(sensor)")
            }
            #expect(tested.contains("/sys/class/hwmon/hwmon*/light"), "61-orientd.rules does not start orientd for an hwmon light sensor")
            #expect(tested.contains("/dev/orientd/input-accel-*"), "61-orientd.rules does not start orientd for an input accelerometer")
            for unit in ["orientd.service", "orientd.socket"] {
                let text = try String(contentsOfFile: Self.root + "/systemd/" + unit, encoding: .utf8)
                let globs = text.split(separator: "\n").compactMap { line -> String? in
                    line.hasPrefix("ConditionPathExistsGlob=|") ? String(line.dropFirst("ConditionPathExistsGlob=|".count)) : nil
                }
                #expect(globs.sorted() == tested.sorted(), "\(unit) runs for \(globs), the udev rule starts it for \(tested)")
            }
        }

        /// The helper 61-orientd.rules runs gives a group (orientd, here the test's own) the files
        /// orientd writes, keeping their owner's bits, and no other file: not the device's uevent
        /// or its scale, not a read-only scan element, nothing a link in the directory points to.
        @Test func theSensorAccessHelperGrantsOnlyWhatOrientdWrites() throws {
            let device = makeScratchDirectory() + "/iio:device0", outside = makeScratchDirectory() + "/secret"
            defer { try? FileManager.default.removeItem(atPath: device) }
            let files: [(String, Int)] = [
                ("sampling_frequency", 0o644), ("in_accel_hysteresis", 0o644), ("in_accel_scale", 0o644), ("uevent", 0o644),
                ("in_accel_x_raw", 0o444), ("buffer/enable", 0o644), ("buffer/length", 0o644), ("buffer0/enable", 0o644),
                ("scan_elements/in_accel_x_en", 0o644), ("scan_elements/in_accel_x_type", 0o444),
                ("trigger/current_trigger", 0o644), ("events/in_accel_thresh_rising_en", 0o644), ("power/control", 0o644),
            ]
            for (file, mode) in files {
                let path = device + "/" + file
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                #expect(FileManager.default.createFile(atPath: path, contents: Data("0\n".utf8), attributes: [.posixPermissions: mode]))
            }
            #expect(FileManager.default.createFile(atPath: outside, contents: Data(), attributes: [.posixPermissions: 0o644]))
            try FileManager.default.createSymbolicLink(atPath: device + "/events/in_accel_mag_rising_en", withDestinationPath: outside)
            let group = String(cString: getgrgid(getgid())!.pointee.gr_name)

            // Before its group exists (a sensor's event between unpacking and postinst): it fails,
            // so udev does not mark the device granted, and no file is left writable to its group.
            let early = try run(executable: Self.root + "/udev/orientd-sensor-access", [device, "orientd-no-such-group"])
            #expect(early.status != 0)
            var before = stat()
            #expect(lstat(device + "/sampling_frequency", &before) == 0 && before.st_mode & S_IWGRP == 0, "made writable to its old group")

            let helper = try run(executable: Self.root + "/udev/orientd-sensor-access", [device, group])
            #expect(helper.status == 0 && helper.standardError.isEmpty, "\(helper.standardError)")
            func groupWritable(_ path: String) -> Bool {
                var info = stat()
                return lstat(path, &info) == 0 && info.st_gid == getgid() && info.st_mode & S_IWGRP != 0
            }
            let granted = files.map(\.0).filter { groupWritable(device + "/" + $0) }
            #expect(granted == ["sampling_frequency", "in_accel_hysteresis", "buffer/enable", "buffer/length", "buffer0/enable",
                                "scan_elements/in_accel_x_en", "trigger/current_trigger", "events/in_accel_thresh_rising_en"], "\(granted)")
            #expect(!groupWritable(outside), "the helper followed a link out of the device's directory")
            // The rule runs it on accelerometers, by its installed path, with the device's directory.
            let rule = try String(contentsOfFile: Self.root + "/udev/61-orientd.rules", encoding: .utf8)
            #expect(rule.contains("GROUP=\"orientd\", MODE=\"0660\"\nPROGRAM=\"/usr/libexec/orientd/orientd-sensor-access %S%p\""))
            // Input devices by an ACL on the ones orientd reads, not the input group (every keyboard).
            for property in ["ID_INPUT_ACCELEROMETER", "ID_INPUT_SWITCH"] {
                #expect(rule.contains("ENV{\(property)}==\"1\", PROGRAM=\"/usr/bin/setfacl -m g:orientd:r $devnode\""), "\(property)")
            }
            let unit = try String(contentsOfFile: Self.root + "/systemd/orientd.service", encoding: .utf8)
            #expect(unit.contains("\nUser=orientd\n") && !unit.contains("SupplementaryGroups="), "\(unit)")
        }

        @Test func theServiceIsHardenedToAtMostTwo() throws {
            let security = try run(executable: "/usr/bin/systemd-analyze",
                                   ["security", "--offline=true", Self.root + "/systemd/orientd.service"])
            let summary = try #require(security.standardOutput.split(separator: "\n").last { $0.contains("Overall exposure level") },
                                       "\(security.standardOutput)\(security.standardError)")
            let score = try #require(Double(summary.split(separator: ":").last!.split(separator: " ").first!), "\(summary)")
            #expect(score <= 2.0, "\(summary)")
        }

        /// Started by systemd-socket-activate as orientd.socket would start it: orientd adopts the
        /// passed socket, serves on it, and leaves the file to its owner when it stops.
        @Test func socketActivationAdoptsThePassedSocket() throws {
            let sensor = try EmulatedAccelerometer.standard(.landscapeRight)
            let scratch = makeScratchDirectory()
            let socketPath = scratch + "/activated.sock"
            let activator = Process()
            activator.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
            // systemd-socket-activate gives the program only the variables it is told to pass.
            activator.arguments = ["--listen", socketPath] + sensor.environment.keys.sorted().map { "--setenv=\($0)" } + [
                                   Products.path("orientd"), "--config", "/dev/null",
                                   "--state-file", scratch + "/state.json", "--socket", scratch + "/unused.sock"]
            var environment = ProcessInfo.processInfo.environment
            environment.merge(sensor.environment) { $1 }
            activator.environment = environment
            let log = Pipe()
            activator.standardError = log
            try activator.run()
            defer { if activator.isRunning { activator.terminate() }; activator.waitUntilExit() }
            #expect(waitUntil(timeout: 5) { FileManager.default.fileExists(atPath: socketPath) })

            // The first connection starts orientd, which answers on the passed socket.
            let client = try OrientdClient(socketPath: socketPath, timeout: 10)
            #expect(try client.call("get")["orientation"]?.stringValue == "landscapeRight")
            #expect(!FileManager.default.fileExists(atPath: scratch + "/unused.sock"), "orientd bound its own socket")

            activator.terminate()
            activator.waitUntilExit()
            let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(output.contains("serving the orientation on \(socketPath)"), "\(output)")
        }

        /// READY once serving, STATUS lines a person can read, the watchdog fed while the sensor
        /// sleeps and while it is read, and STOPPING on SIGTERM.
        @Test func readyStatusWatchdogAndStoppingReachTheNotifySocket() throws {
            let notifications = try NotifySocket()
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.landscapeLeft),
                                    environment: ["NOTIFY_SOCKET": notifications.path, "WATCHDOG_USEC": "1000000"])
            #expect(notifications.wait(timeout: 5) { $0.contains("READY=1") })
            let ready = notifications.messages.first { $0.contains("READY=1") } ?? ""
            #expect(ready.contains("STATUS=landscapeLeft; sensor iio:device0 (accel_3d) at local:"), "\(ready)")

            // No client: the sensor sleeps, and the watchdog is still fed (every 0.5 s here).
            let idleBeats = notifications.count("WATCHDOG=1")
            Thread.sleep(forTimeInterval: 2)
            #expect(notifications.count("WATCHDOG=1") - idleBeats >= 3)

            let client = try daemon.client()
            #expect(try client.subscribe() == .landscapeLeft)
            #expect(notifications.wait(timeout: 3) { $0.contains("STATUS=landscapeLeft; sensor iio:device0 (accel_3d) at local:, reading; 1 client") },
                    "\(notifications.messages)")
            let readingBeats = notifications.count("WATCHDOG=1")
            Thread.sleep(forTimeInterval: 2)
            #expect(notifications.count("WATCHDOG=1") - readingBeats >= 3)

            #expect(daemon.stop() == 0)
            #expect(notifications.messages.contains { $0.hasPrefix("STOPPING=1") })
        }

        /// A read that never returns (here: the raw attribute replaced by a FIFO nobody writes)
        /// starves the watchdog, so systemd would restart orientd; readings that flow feed it again.
        @Test func aHungReadStarvesTheWatchdog() throws {
            let notifications = try NotifySocket()
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor, environment: ["NOTIFY_SOCKET": notifications.path, "WATCHDOG_USEC": "1000000"])
            let subscriber = try daemon.client()
            #expect(try subscriber.subscribe() == .portrait)
            #expect(notifications.wait(timeout: 3) { $0 == "WATCHDOG=1" })

            let raw = sensor.root + "/sys" + EmulatedAccelerometer.devicePath + "/in_accel_x_raw"
            unlink(raw)
            #expect(mkfifo(raw, 0o644) == 0)
            // Beats come every 0.5 s while readings flow: wait for 1.2 s without one (the poller
            // has reached the FIFO, however slow the machine), then for none in 1 s more.
            var beats = notifications.count("WATCHDOG=1")
            #expect(waitForQuiet(of: 1.2, timeout: 10) {
                let count = notifications.count("WATCHDOG=1")
                defer { beats = count }
                return count != beats
            }, "the watchdog was fed on while the read hung")
            let beatsWhenHung = notifications.count("WATCHDOG=1")
            Thread.sleep(forTimeInterval: 1)
            #expect(notifications.count("WATCHDOG=1") == beatsWhenHung, "the watchdog was fed while the read hung")

            // Answer the read: the loop runs, and the watchdog is fed again.
            let writer = open(raw, O_WRONLY)
            _ = "0\n".withCString { write(writer, $0, 2) }
            close(writer)
            unlink(raw)
            sensor.set("in_accel_x_raw", "0")
            #expect(waitUntil(timeout: 3) { notifications.count("WATCHDOG=1") > beatsWhenHung })
        }

        @Test func clientsAreToldWhenTheDaemonStops() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard())
            let subscriber = try daemon.client()
            #expect(try subscriber.subscribe() == .portrait)
            let idle = try rawConnection(to: daemon)
            #expect(try idle.readJSON()?["event"]?.stringValue == "hello")

            let stoppedAt = Date()
            #expect(daemon.stop() == 0)
            #expect(Date().timeIntervalSince(stoppedAt) < 4, "within the unit's 5 s stop timeout")
            #expect(try subscriber.nextEvent()?["event"]?.stringValue == "stopping")
            #expect(try idle.readJSON()?["event"]?.stringValue == "stopping")
            #expect(try idle.readJSON() == nil, "orientd closes the connection after 'stopping'")
            #expect(daemon.log.contains("told 2 clients orientd is stopping"), "\(daemon.log)")
        }

        /// A line that repeats (here: refusing client after client) is logged a few times, then held
        /// back, so a flood cannot fill the journal; every client is still answered.
        @Test func repeatedLogLinesAreHeldBack() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--max-clients", "1"])
            // The one place may still be held by a connection of the daemon's start-up checks
            // that orientd is closing: try until it is free.
            var held: DaemonConnection?
            #expect(waitUntil(timeout: 5, every: 0.05) {
                let connection = try? rawConnection(to: daemon)
                guard (try? connection?.readJSON())??["event"] == .string("hello") else { return false }
                held = connection
                return true
            })
            #expect(held != nil)
            for _ in 0..<20 {
                let refused = try rawConnection(to: daemon)
                #expect(try refused.readJSON()?["error"]?["code"] == .string("too-many-clients"))
            }
            let refusals = daemon.log.split(separator: "\n").filter { $0.contains("refusing a client: 1 are connected already") }
            #expect(refusals.count == 5, "\(refusals)")
            withExtendedLifetime(held) {}
        }

        /// With standard error on the journal, each line carries its syslog level for journald.
        @Test func logLinesCarryTheJournalLevelWhenStderrIsTheJournal() throws {
            let orientd = Products.path("orientd")
            let journal = try run(executable: "/bin/sh", ["-c", """
                JOURNAL_STREAM=$(stat -L -c %d:%i /proc/$$/fd/2) exec "\(orientd)" --config /nonexistent/orientd.conf
                """])
            #expect(journal.status == 78)
            #expect(journal.standardError.hasPrefix("<3>"), "\(journal.standardError)")
            #expect(!journal.standardError.contains("orientd: error:"))

            let plain = try run(executable: orientd, ["--config", "/nonexistent/orientd.conf"])
            #expect(plain.standardError.hasPrefix("orientd: error: "), "\(plain.standardError)")
        }
    }
}

/// A datagram socket standing in for systemd's NOTIFY_SOCKET; collects what orientd sends.
final class NotifySocket: @unchecked Sendable {
    let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    private var received: [String] = []

    init() throws {
        path = makeScratchDirectory() + "/notify"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0 else { throw TestFailure("cannot bind \(path): \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The thread holds the socket only weakly: it ends, and closes the descriptor, once the test lets go.
        let socketDescriptor = descriptor
        Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while let socket = self {
                let count = recv(socketDescriptor, &buffer, buffer.count, 0)
                if count > 0 { socket.append(String(decoding: buffer.prefix(count), as: UTF8.self)) }
            }
            close(socketDescriptor)
        }.start()
    }

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    func count(_ message: String) -> Int { messages.filter { $0 == message }.count }

    func wait(timeout: Double, until matches: (String) -> Bool) -> Bool {
        waitUntil(timeout: timeout) { self.messages.contains(where: matches) }
    }

    private func append(_ message: String) {
        lock.lock()
        received.append(message)
        lock.unlock()
    }
}
