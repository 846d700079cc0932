import Foundation
import ProcessHarness
import OrientationCore

/// Where iio-sensor-proxy's package (and libgudev, which it needs) is unpacked: scripts/setup
/// unpacks Debian's into .build/iio-sensor-proxy, so nothing is installed on the machine.
struct SensorProxyPackage {
    let root: String
    var daemon: String { root + "/usr/sbin/iio-sensor-proxy" }
    var monitorSensor: String { root + "/usr/bin/monitor-sensor" }
    var isUnpacked: Bool { FileManager.default.isExecutableFile(atPath: daemon) && FileManager.default.isExecutableFile(atPath: monitorSensor) }

    /// `environment` with the package's own libraries found first.
    func environment(_ environment: [String: String]) -> [String: String] {
        environment.merging(["LD_LIBRARY_PATH": root + "/usr/lib/x86_64-linux-gnu"]) { $1 }
    }
}

/// iio-sensor-proxy (Debian's, unchanged) on the same emulated sensor, on a private D-Bus system
/// bus, watched by its own client `monitor-sensor`, whose lines are stamped on arrival.
final class SensorProxyUnderTest: DaemonUnderTest {
    let name = "iio-sensor-proxy"
    let daemonProcess: ChildProcess
    private let package: SensorProxyPackage
    private let environment: [String: String]
    private var monitor: ChildProcess?

    /// Starts iio-sensor-proxy on `bus`.
    init(package: SensorProxyPackage, bus: PrivateSystemBus, sensorEnvironment: [String: String]) throws {
        self.package = package
        environment = package.environment(sensorEnvironment.merging(bus.environment) { $1 })
        daemonProcess = try ChildProcess(package.daemon, [], environment: environment,
                                         standardError: bus.directory + "/iio-sensor-proxy.log")
    }

    deinit {
        monitor?.stop()
        daemonProcess.stop()
    }

    /// Starts the watching client; it claims the accelerometer, so the proxy starts polling.
    func startMonitoring() throws {
        let monitor = try Self.monitorSensor(package, environment: environment)
        self.monitor = monitor
        guard waitUntil(timeout: 10, { !reports.isEmpty }) else {
            throw BenchFailure("monitor-sensor reported no orientation from iio-sensor-proxy")
        }
    }

    /// Stops the watching client: the proxy releases the accelerometer and stops polling it.
    func stopMonitoring() {
        monitor?.stop()
        monitor = nil
    }

    var reports: [(orientation: Orientation, time: Double)] {
        (monitor?.output ?? []).compactMap { line in Self.orientation(in: line.text).map { ($0, line.time) } }
    }

    /// Times the first answer of a freshly started iio-sensor-proxy, as for orientd: from its
    /// start until a client (monitor-sensor, started at once and waiting for it to appear) holds
    /// an orientation that is not undefined. Only one proxy may own its bus name at a time.
    static func timeFirstAnswer(package: SensorProxyPackage, bus: PrivateSystemBus, sensorEnvironment: [String: String]) throws -> Double {
        let environment = package.environment(sensorEnvironment.merging(bus.environment) { $1 })
        let start = now()
        let proxy = try ChildProcess(package.daemon, [], environment: environment, standardError: bus.directory + "/iio-sensor-proxy-first.log")
        let monitor = try monitorSensor(package, environment: environment)
        defer {
            monitor.stop()
            proxy.stop()
        }
        var answered: Double?
        waitUntil(timeout: 10) {
            answered = monitor.output.first { line in
                orientation(in: line.text).map { $0 != .unknown } ?? false
            }?.time
            return answered != nil
        }
        guard let answered else { throw BenchFailure("iio-sensor-proxy gave no orientation within 10 s") }
        return answered - start
    }

    private static func monitorSensor(_ package: SensorProxyPackage, environment: [String: String]) throws -> ChildProcess {
        // Line-buffered, or monitor-sensor's lines would wait in a pipe buffer and look late.
        try ChildProcess("/usr/bin/stdbuf", ["-oL", package.monitorSensor, "--accel"], environment: environment)
    }

    /// monitor-sensor prints "=== Has accelerometer (orientation: normal)" and then
    /// "    Accelerometer orientation changed: left-up". Names as in docs/conventions.md, "Orientation names".
    static func orientation(in line: String) -> Orientation? {
        for marker in ["Accelerometer orientation changed: ", "Has accelerometer (orientation: "] {
            guard let range = line.range(of: marker) else { continue }
            let name = line[range.upperBound...].prefix { $0.isLetter || $0 == "-" }
            switch name {
            case "normal": return .portrait
            case "bottom-up": return .portraitUpsideDown
            case "right-up": return .landscapeLeft
            case "left-up": return .landscapeRight
            case "undefined": return .unknown
            default: return nil
            }
        }
        return nil
    }
}
