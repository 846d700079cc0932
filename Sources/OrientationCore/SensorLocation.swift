/// Where an accelerometer sits: in the display (it drives the screen orientation) or in the base
/// (keyboard half of a convertible; it must not).
public enum SensorLocation: String, Sendable, Codable {
    case display
    case base

    /// Reads udev's `ACCEL_LOCATION` ("display", "base"), else the sysfs `label` ("accel-display",
    /// "accel-base"), else the sysfs `location` file that ChromeOS EC sensors had before Linux 5.19
    /// gave them a label ("lid": the display half, "base"), as iio-sensor-proxy does. Anything else
    /// says nothing about the location.
    public init?(udevLocation: String?, sysfsLabel: String?, sysfsLocation: String? = nil) {
        if let udev = udevLocation?.trimmingBlanks(), let location = SensorLocation(rawValue: String(udev)) {
            self = location
        } else if let label = sysfsLabel?.trimmingBlanks(), label.hasPrefix("accel-"),
                  let location = SensorLocation(rawValue: String(label.dropFirst("accel-".count))) {
            self = location
        } else if let place = sysfsLocation?.trimmingBlanks(), let location = Self.chromeOSPlaces[String(place)] {
            self = location
        } else {
            return nil
        }
    }

    /// cros_ec_sensors' `location` values (MOTIONSENSE_LOC_LID, MOTIONSENSE_LOC_BASE).
    static let chromeOSPlaces: [String: SensorLocation] = ["lid": .display, "base": .base]
}
