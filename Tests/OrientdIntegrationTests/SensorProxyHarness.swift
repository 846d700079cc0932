import EmulatedSensor
import Foundation
import ProcessHarness

/// iio-sensor-proxy's own daemon and client (Debian's 3.0), unpacked into .build by scripts/setup:
/// the reference orientd's D-Bus face is compared with.
enum Reference {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/iio-sensor-proxy").path
    static let daemon = root + "/usr/sbin/iio-sensor-proxy"
    static let monitorSensor = root + "/usr/bin/monitor-sensor"
    /// libgudev, which the reference needs and this machine may lack.
    static let libraries = root + "/usr/lib/x86_64-linux-gnu"

    static var isUnpacked: Bool { FileManager.default.isExecutableFile(atPath: monitorSensor) }

    /// The emulated sensors with what the reference looks for: its udev rule's property.
    static let accelerometerProperties = ["IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"]
}

/// The D-Bus side of a test: a private system bus, and clients run as an unprivileged user (as a
/// desktop's are), so neither the bus policy nor sd-bus's privilege checks are bypassed by root.
final class SensorProxyBench {
    let directory: String
    let bus: PrivateSystemBus
    /// A copy of the reference's client that user nobody may run.
    let monitorSensor: String

    init(policy: PrivateSystemBus.Policy = .permissive) throws {
        directory = makeScratchDirectory()
        chmod(directory, 0o755)
        bus = try PrivateSystemBus(directory: directory, policy: policy)
        monitorSensor = directory + "/monitor-sensor"
        try FileManager.default.copyItem(atPath: Reference.monitorSensor, toPath: monitorSensor)
        for library in try FileManager.default.contentsOfDirectory(atPath: Reference.libraries) {
            try FileManager.default.copyItem(atPath: Reference.libraries + "/" + library, toPath: directory + "/" + library)
        }
    }

    /// What every process on this bench needs: the bus, and the reference's libraries.
    var environment: [String: String] { bus.environment.merging(["LD_LIBRARY_PATH": directory]) { $1 } }

    /// orientd serving the D-Bus face on this bench's bus, reading `sensor`.
    func orientd(_ sensor: EmulatedAccelerometer?, arguments: [String] = ["--no-sensor-proxy-polkit"], wrapper: [String] = []) throws -> Daemon {
        try Daemon(sensor: sensor, arguments: ["--sensor-proxy"] + arguments, environment: bus.environment, wrapper: wrapper)
    }

    /// iio-sensor-proxy itself on this bench's bus, reading `sensor`.
    func reference(_ sensor: EmulatedAccelerometer) throws -> ChildProcess {
        try ChildProcess(Reference.daemon, [], environment: sensor.environment.merging(environment) { $1 },
                         standardError: directory + "/iio-sensor-proxy.log")
    }

    /// iio-sensor-proxy under `wrapper` (umockdev-run with a device and its ioctl recording, as
    /// its own suite runs it), on this bench's bus.
    func reference(wrapper: [String]) throws -> ChildProcess {
        try ChildProcess(wrapper[0], Array(wrapper.dropFirst()) + [Reference.daemon], environment: environment,
                         standardError: directory + "/iio-sensor-proxy.log")
    }

    /// monitor-sensor, run as nobody, its lines stamped as they come (line-buffered by stdbuf).
    func startMonitorSensor() throws -> ChildProcess {
        try ChildProcess("/usr/bin/env", unprivileged(["stdbuf", "-oL", monitorSensor]), environment: environment,
                         standardError: directory + "/monitor-sensor.log")
    }

    /// Runs a Python client (dbus-python on the bench's bus) as nobody to completion.
    func python(_ script: String, _ arguments: [String] = []) throws -> Finished {
        try run(executable: "/usr/bin/env", unprivileged(["/usr/bin/python3", "-c", script] + arguments), environment: environment)
    }

    /// `busctl --system …` on the bench's bus, as nobody.
    func busctl(_ arguments: [String]) throws -> Finished {
        try run(executable: "/usr/bin/env", unprivileged(["busctl", "--system"] + arguments), environment: environment)
    }

    /// `dbus-send --system --print-reply …` on the bench's bus, as nobody (or as `user`): a refusal
    /// names its error, and whose it is (the bus's "Rejected send message", or orientd's).
    func dbusSend(_ arguments: [String], as user: (uid: uid_t, gid: gid_t) = (65534, 65534)) throws -> Finished {
        try run(executable: "/usr/bin/env", unprivileged(["dbus-send", "--system", "--print-reply"] + arguments, uid: user.uid, gid: user.gid),
                environment: environment)
    }

    /// A property of /net/hadess/SensorProxy as busctl prints it (`s "normal"`, `b true`).
    func property(_ name: String) -> String? {
        guard let finished = try? busctl(["get-property", "net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy", name]),
              finished.status == 0 else { return nil }
        return finished.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The process that owns `name` on the bench's bus.
    func owner(of name: String) -> Int32? {
        guard let finished = try? busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                          "GetConnectionUnixProcessID", "s", name]),
              finished.status == 0 else { return nil }
        return Int32(finished.standardOutput.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }

    /// `command` as user `uid` (nobody unless said) when the tests run as root; as is otherwise.
    private func unprivileged(_ command: [String], uid: uid_t = 65534, gid: gid_t = 65534) -> [String] {
        getuid() == 0 ? ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] + command : command
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}

extension ChildProcess {
    /// Waits until a line of standard output contains `text`; returns the lines so far.
    @discardableResult
    func waitForLine(containing text: String, timeout: Double = 15) -> Bool {
        waitUntil(timeout: timeout) { output.contains { $0.text.contains(text) } }
    }

    var outputText: String { output.map(\.text).joined(separator: "\n") }
}

/// A D-Bus client on a bench that keeps its claims, as a desktop session does: it takes
/// `claim SENSOR` and `get PROPERTY` lines and answers each (booleans in lower case, numbers as
/// iio-sensor-proxy's suite reads them, with int()).
final class ProxyClaimer {
    private let client: ChildProcess

    init(on bench: SensorProxyBench) throws {
        client = try ChildProcess("/usr/bin/python3", ["-u", "-c", Self.script], environment: bench.environment,
                                  standardError: bench.directory + "/claimer.log", writableInput: true)
    }

    deinit { client.stop() }

    /// "claimed" for `claim Accelerometer`, the value for `get AccelerometerOrientation`; nil
    /// when no answer came within 10 s.
    func ask(_ line: String) -> String? {
        let seen = client.output.count
        client.writeInput(line + "\n")
        guard client.waitForLines(seen + 1, timeout: 10) else { return nil }
        return client.output[seen].text
    }

    static let script = """
        import dbus, sys
        bus = dbus.SystemBus()
        proxy = bus.get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy")
        for line in sys.stdin:
            verb, name = line.split()
            if verb == "claim":
                getattr(proxy, "Claim" + name)(dbus_interface="net.hadess.SensorProxy")
                print("claimed", flush=True)
            else:
                try:
                    value = proxy.Get("net.hadess.SensorProxy", name, dbus_interface="org.freedesktop.DBus.Properties")
                except dbus.DBusException as error:
                    print("error:", error.get_dbus_name(), flush=True)
                    continue
                if isinstance(value, dbus.Boolean): value = "true" if value else "false"
                elif isinstance(value, dbus.Double): value = int(value)
                print(value, flush=True)
        """
}
