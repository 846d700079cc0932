import DaemonThreads
import COrientdShim

/// udev properties of local devices, as udev rules and systemd's hwdb set them
/// (`ACCEL_MOUNT_MATRIX`, `ACCEL_LOCATION` from 60-sensor.hwdb).
public enum UdevProperties {
    /// The property's value, or nil when the device or the property is not known to udev.
    public static func value(_ property: String, subsystem: String, sysname: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = orientd_udev_device_property(subsystem, sysname, property, &buffer, buffer.count)
        guard length >= 0 else { return nil }
        return String(cText: buffer.prefix(length))
    }

    /// The key systemd's 60-sensor.rules looks the local IIO device `sysname` up by in the hwdb
    /// (docs/calibration.md), or nil when udev does not know the device or the rule does not apply.
    public static func hwdbMatch(sysname: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 2048)
        let length = orientd_udev_sensor_hwdb_match(sysname, &buffer, buffer.count)
        guard length >= 0 else { return nil }
        return String(cText: buffer.prefix(length))
    }

    /// Whether udev has yet to run its rules for the device, which appeared a moment ago: false
    /// when it has, or when there is no such local device.
    public static func isBeingSetUp(subsystem: String, sysname: String) -> Bool {
        orientd_udev_device_is_initialized(subsystem, sysname) == 0
    }

    /// The device's /sys path, or nil when udev does not know it.
    public static func syspath(subsystem: String, sysname: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        let length = orientd_udev_device_syspath(subsystem, sysname, &buffer, buffer.count)
        guard length >= 0 else { return nil }
        return String(cText: buffer.prefix(length))
    }
}
