import AccelerometerIO
import OrientationCore

/// Writes settings as a commented config file: `orientd --print-config` prints it, and the sample
/// config (config/orientd.conf) is this with the defaults. A key at its default is written
/// commented out ("#rate: 25"), so a copied file does not pin today's defaults for ever.
public enum ConfigurationTemplate {
    public static func render(_ settings: DaemonSettings, defaults: DaemonSettings) -> String {
        var lines = [
            "# orientd configuration (YAML). Every key may be left out: it then keeps its default,",
            "# shown commented out (\"#rate: 25\"); remove the '#' to change one. A command-line",
            "# flag of the same name (--rate 25, --settle-ms 60) overrides the file.",
            "# Check a file with: orientd --config FILE --print-config",
        ]
        for section in SettingKey.Section.allCases {
            let indent = section == .classifier ? "  " : ""
            lines.append("")
            if section == .classifier {
                lines += devices(settings.devices)
                lines.append("")
                lines.append("# The orientation judge. All times are in milliseconds and all angles in degrees, never")
                lines.append("# in samples, so it behaves the same at any rate. Tilt is the angle between the screen's")
                lines.append("# plane and the vertical: 0 upright, 90 lying flat.")
                lines.append("classifier:")
            }
            for key in SettingKey.all where key.section == section {
                lines += comment("\(key.summary) (\(key.accepts))", indent: indent)
                let value = key.value(in: settings)
                let unchanged = value == key.value(in: defaults)
                lines.append("\(indent)\(unchanged ? "#" : "")\(key.name): \(value.yaml)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `devices:` section: an example while there is none.
    private static func devices(_ devices: [String: DeviceSettings]) -> [String] {
        var lines = comment("Accelerometers that cannot describe themselves (a remote board has no udev hwdb here), by id as 'orientctl status' lists it, or by URI for that context's display accelerometer: mount-matrix and location (display or base). These win over udev and sysfs.", indent: "")
        guard !devices.isEmpty else {
            return lines + ["#devices:", "#  \"ip:192.0.2.7/accel_3d\":", "#    mount-matrix: \"0, -1, 0; 1, 0, 0; 0, 0, 1\"", "#    location: display"]
        }
        lines.append("devices:")
        for (id, device) in devices.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(SettingText(text: id, isString: true).yaml):")
            if let matrix = device.mountMatrix { lines.append("    mount-matrix: \"\(matrix)\"") }
            if let location = device.location { lines.append("    location: \(location.rawValue)") }
        }
        return lines
    }

    /// `text` as comment lines of at most `width` characters, broken between words.
    private static func comment(_ text: String, indent: String, width: Int = 92) -> [String] {
        var lines: [String] = []
        var line = indent + "#"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > width, line.count > indent.count + 1 {
                lines.append(line)
                line = indent + "#"
            }
            line += " " + word
        }
        lines.append(line)
        return lines
    }
}
