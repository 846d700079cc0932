import Foundation
import ProcessHarness
import OrientationCore
import SensorProxy

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
        let monitor = try package.startMonitorSensor(environment: environment)
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
        let monitor = try package.startMonitorSensor(environment: environment)
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

    /// The orientation a line of monitor-sensor reports, if it reports one.
    static func orientation(in line: String) -> Orientation? {
        SensorProxyPackage.orientationName(inMonitorLine: line).flatMap(ProxyAccelerometer.orientation(named:))
    }
}
