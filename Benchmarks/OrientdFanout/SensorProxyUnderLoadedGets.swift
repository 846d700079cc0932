import Foundation
import NIOConcurrencyHelpers
import OrientationCore
import ProcessHarness
import SensorProxy

/// iio-sensor-proxy (Debian's 3.0, the copy scripts/setup unpacks) under the loaded-gets benchmark,
/// on a private system bus: subscribers are D-Bus connections that claim the accelerometer and
/// hear PropertiesChanged (drained by one thread), `get` is reading the AccelerometerOrientation
/// property, and its decisions are when its own client, monitor-sensor, prints them.
final class SensorProxyUnderLoadedGets: LoadedService {
    let name = "iio-sensor-proxy"
    private let bus: PrivateSystemBus
    private let proxy: ChildProcess
    private let monitor: ChildProcess
    private let log: String
    private var subscribers: [SensorProxyConnection] = []
    private let draining = NIOLockedValueBox(true)
    private var drainer: Thread?
    /// Wall clock minus monotonic clock, to put monitor-sensor's stamped lines on the wall clock.
    private let wallOffset = wallClockNow() - monotonicNow()

    init(package: SensorProxyPackage, scratch: String, sensorEnvironment: [String: String], maxClients: Int) throws {
        let directory = scratch + "/bus"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A desktop's bus allows 256 connections a user and 512 match rules a connection; the
        // proxy watches every claimer's name with a rule of its own.
        let limit = 4 * maxClients
        bus = try PrivateSystemBus(directory: directory, limits: [
            "max_completed_connections": limit, "max_connections_per_user": limit,
            "max_match_rules_per_connection": limit, "max_replies_per_connection": limit,
        ])
        let environment = package.environment(sensorEnvironment.merging(bus.environment) { $1 })
        log = scratch + "/iio-sensor-proxy-loaded-gets.log"
        proxy = try ChildProcess(package.daemon, [], environment: environment, standardError: log)
        monitor = try package.startMonitorSensor(environment: environment)
        guard waitUntil(timeout: 10, { self.decisions().contains { $0.orientation != .unknown } }) else {
            throw FanoutFailure("iio-sensor-proxy gave monitor-sensor no orientation within 10 s; see \(log)")
        }
    }

    deinit {
        draining.withLockedValue { $0 = false }
        if let drainer { waitUntil(timeout: 10) { drainer.isFinished } }
        subscribers.removeAll()
        monitor.stop()
        proxy.stop()
    }

    private var address: String { bus.environment["DBUS_SYSTEM_BUS_ADDRESS"]! }

    func subscribe(count: Int, timeout: Double, progress: (Int) -> Void) throws {
        for index in 0..<count {
            let connection = try SensorProxyConnection(address: address)
            try connection.claimAndListen()
            subscribers.append(connection)
            if (index + 1) % 1000 == 0 { progress(index + 1) }
        }
        nonisolated(unsafe) let connections = subscribers
        let draining = draining
        let drainer = Thread {
            var descriptors = connections.map(\.pollDescriptor)
            while draining.withLockedValue({ $0 }) {
                _ = poll(&descriptors, nfds_t(descriptors.count), 100)
                for (index, connection) in connections.enumerated() where descriptors[index].revents != 0 {
                    _ = connection.process()
                    descriptors[index] = connection.pollDescriptor
                }
            }
        }
        self.drainer = drainer
        drainer.start()
    }

    func getter() throws -> @Sendable () -> Orientation? {
        nonisolated(unsafe) let connection = try SensorProxyConnection(address: address)
        return { connection.orientation() }
    }

    func decisions() -> [(time: Double, orientation: Orientation)] {
        monitor.output.compactMap { line in
            SensorProxyPackage.orientationName(inMonitorLine: line.text).flatMap(ProxyAccelerometer.orientation(named:)).map { (line.time + wallOffset, $0) }
        }
    }

    var complaints: [String] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("WARNING") || $0.contains("CRITICAL") || $0.contains("ERROR") }.map(String.init)
    }
}
