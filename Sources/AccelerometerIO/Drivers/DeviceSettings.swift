import OrientationCore

/// What the config file says about one accelerometer that cannot say it itself (a remote board
/// has no udev hwdb on orientd's side): its mount matrix and where it sits. Named in its
/// `[Device "ID"]` section by the accelerometer's id ("ip:192.0.2.7/accel_3d", see `orientctl status`), or by a
/// context's URI for its display accelerometer's mount matrix. Wins over udev and sysfs.
public struct DeviceSettings: Equatable, Sendable {
    public var mountMatrix: MountMatrix?
    public var location: SensorLocation?

    public init(mountMatrix: MountMatrix? = nil, location: SensorLocation? = nil) {
        self.mountMatrix = mountMatrix
        self.location = location
    }

    /// Whether `key` names a context (a URI) rather than one accelerometer (URI/name).
    public static func namesContext(_ key: String) -> Bool {
        key == "local:" || (key.hasPrefix("ip:") && !key.contains("/"))
    }
}
