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
}
