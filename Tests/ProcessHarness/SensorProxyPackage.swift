import Foundation

/// Where iio-sensor-proxy's package (and libgudev, which it needs) is unpacked: scripts/setup
/// unpacks Debian's into .build/iio-sensor-proxy, so nothing is installed on the machine.
public struct SensorProxyPackage: Sendable {
    public let root: String
    public var daemon: String { root + "/usr/sbin/iio-sensor-proxy" }
    public var monitorSensor: String { root + "/usr/bin/monitor-sensor" }
    public var isUnpacked: Bool { FileManager.default.isExecutableFile(atPath: daemon) && FileManager.default.isExecutableFile(atPath: monitorSensor) }

    public init(root: String) { self.root = root }

    /// `environment` with the package's own libraries found first.
    public func environment(_ environment: [String: String]) -> [String: String] {
        environment.merging(["LD_LIBRARY_PATH": root + "/usr/lib/x86_64-linux-gnu"]) { $1 }
    }

    /// monitor-sensor, line-buffered (or its lines would wait in a pipe buffer and look late),
    /// following the accelerometer; its lines are stamped as they come.
    public func startMonitorSensor(environment: [String: String]) throws -> ChildProcess {
        try ChildProcess("/usr/bin/stdbuf", ["-oL", monitorSensor, "--accel"], environment: environment)
    }

    /// The `AccelerometerOrientation` name in a line of monitor-sensor: "=== Has accelerometer
    /// (orientation: normal)" at the start, "    Accelerometer orientation changed: left-up" after.
    public static func orientationName(inMonitorLine line: String) -> String? {
        for marker in ["Accelerometer orientation changed: ", "Has accelerometer (orientation: "] {
            guard let range = line.range(of: marker) else { continue }
            return String(line[range.upperBound...].prefix { $0.isLetter || $0 == "-" })
        }
        return nil
    }
}
