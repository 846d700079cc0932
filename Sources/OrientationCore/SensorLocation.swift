/// Where an accelerometer sits: in the display (it drives the screen orientation) or in the base
/// (keyboard half of a convertible; it must not).
public enum SensorLocation: String, Sendable, Codable {
    case display
    case base

    /// Reads udev's `ACCEL_LOCATION` ("display", "base") or the sysfs `label` ("accel-display",
    /// "accel-base"). Anything else says nothing about the location.
    public init?(udevLocation: String?, sysfsLabel: String?) {
        if let udev = udevLocation?.trimmingBlanks(), let location = SensorLocation(rawValue: String(udev)) {
            self = location
        } else if let label = sysfsLabel?.trimmingBlanks(), label.hasPrefix("accel-"),
                  let location = SensorLocation(rawValue: String(label.dropFirst("accel-".count))) {
            self = location
        } else {
            return nil
        }
    }
}
