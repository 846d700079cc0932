import AccelerometerIO
import OrientationCore

/// Writes settings as a commented config file: `orientd --print-config` prints it, and the sample
/// config (config/orientd.conf) is this with the defaults. A key at its default is written
/// commented out ("#rate=25"), so a copied file does not pin today's defaults for ever.
public enum ConfigurationTemplate {
    public static func render(_ settings: DaemonSettings, defaults: DaemonSettings) -> String {
        var lines = [
            "# orientd configuration: INI like systemd's (docs/configuration.md). Every key may be left out:",
            "# it then keeps its default, shown commented out (\"#rate=25\"); remove the '#' to change one.",
            "# Drop-ins, /etc/orientd.conf.d/*.conf (FILE.d/*.conf for --config FILE), are read after this",
            "# file in order of name and override it; a command-line flag of the same name (--rate 25,",
            "# --settle-ms 60) overrides them all. Check the configuration with: orientd --print-config",
        ]
        for section in SettingKey.Section.allCases {
            lines.append("")
            if section == .classifier {
                lines.append("# The orientation judge. All times are in milliseconds and all angles in degrees, never")
                lines.append("# in samples, so it behaves the same at any rate. Tilt is the angle between the screen's")
                lines.append("# plane and the vertical: 0 upright, 90 lying flat.")
            }
            lines.append("[\(section.title)]")
            for key in SettingKey.all where key.section == section {
                lines += comment("\(key.summary) (\(key.accepts))")
                lines += assignments(of: key, settings, defaults: defaults)
            }
        }
        lines.append("")
        lines += devices(settings.devices)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `name=value`, commented out at the default; a list key once per item.
    private static func assignments(of key: SettingKey, _ settings: DaemonSettings, defaults: DaemonSettings) -> [String] {
        let value = key.value(in: settings)
        let prefix = value == key.value(in: defaults) ? "#" : ""
        guard key.takesList else { return ["\(prefix)\(key.name)=\(value.text)"] }
        let items = value.text.split(separator: ",").map(trimmingBlanks)
        return items.isEmpty ? ["\(prefix)\(key.name)="] : items.map { "\(prefix)\(key.name)=\($0)" }
    }

    /// The `[Device "ID"]` sections: an example while there is none.
    private static func devices(_ devices: [String: DeviceSettings]) -> [String] {
        var lines = comment("Accelerometers that cannot describe themselves (a remote board has no udev hwdb here), one section each, named by id as 'orientctl status' lists it, or by URI for that context's display accelerometer: mount-matrix (rows) and location (display or base). These win over udev and sysfs.")
        guard !devices.isEmpty else {
            return lines + ["#[Device \"ip:192.0.2.7/accel_3d\"]", "#mount-matrix=0, -1, 0; 1, 0, 0; 0, 0, 1", "#location=display"]
        }
        for (id, device) in devices.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            lines.append("[Device \"\(id)\"]")
            if let matrix = device.mountMatrix { lines.append("mount-matrix=\(matrix)") }
            if let location = device.location { lines.append("location=\(location.rawValue)") }
            lines.append("")
        }
        lines.removeLast()
        return lines
    }

    /// `text` as comment lines of at most `width` characters, broken between words.
    private static func comment(_ text: String, width: Int = 92) -> [String] {
        var lines: [String] = []
        var line = "#"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > width, line.count > 1 {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        lines.append(line)
        return lines
    }
}
