import RotateRuntime
import OrientationCore

/// The text `orientctl calibrate` prints about a measured matrix: the matrix, the hwdb entry,
/// what each pose reads now and with it, and what to send upstream.
enum CalibrationReport {
    static let upstreamFile = "hwdb.d/60-sensor.hwdb"
    static let upstreamIssues = "https://github.com/systemd/systemd/issues"

    static func measured(_ matrix: MountMatrix) -> [String] {
        var lines = ["Measured mount matrix: \(HwdbEntry.value(of: matrix))"]
        if matrix.determinant < 0 {
            // Real, but rarer than a turn made to the right instead of the left.
            lines.append("Note: this matrix mirrors one axis, as some machines' sensors really are mounted. If the screen "
                + "then turns the wrong way in landscape, step 2 was turned right instead of left: run the calibration again.")
        }
        return lines
    }

    /// One line per resting pose: what orientd reads with the matrix in force and with the new one.
    static func readings(current: MountMatrix, new: MountMatrix) -> [String] {
        let now = MountedOrientations.readings(with: current, mountedAs: new)
        let then = MountedOrientations.readings(with: new, mountedAs: new)
        var lines = ["How orientd reads the device held each way:",
                     "  " + pad("held") + pad("now") + "with the new matrix"]
        for (before, after) in zip(now, then) {
            let mark = before.reads == before.pose ? "" : " (wrong)"
            lines.append("  " + pad(before.pose.rawValue) + pad(before.reads.rawValue + mark) + after.reads.rawValue)
        }
        return lines
    }

    static func entry(_ entry: HwdbEntry) -> [String] {
        ["hwdb entry for this machine (udev's own key for this sensor):", entry.text]
    }

    static func upstream(_ entry: HwdbEntry) -> [String] {
        let proposed = HwdbEntry(match: HwdbEntry.upstreamMatch(for: entry.match), matrix: entry.matrix)
        var lines = ["Send it upstream, so that every Linux on this model gets it: open an issue (\(upstreamIssues)) "
                     + "or a pull request against systemd's \(upstreamFile) with the model's name, this entry and the "
                     + "machine's DMI modalias (/sys/class/dmi/id/modalias):",
                     proposed.text]
        if let dmi = HwdbEntry.dmiModalias(in: entry.match) { lines.append("DMI modalias: \(dmi)") }
        return lines
    }

    /// For a sensor udev has no hwdb key for (a remote one, or one udev's rules do not match):
    /// the config file section instead, which a reload applies.
    static func configSection(device: String, matrix: MountMatrix) -> [String] {
        let why = device.hasPrefix("local:") ? "udev gives this accelerometer no hwdb key"
            : "this accelerometer is read from another machine, which udev here does not know"
        return ["\(why), so there is no hwdb entry for it. Put the matrix into orientd's config file (/etc/orientd.conf) "
                + "instead, then run 'systemctl reload orientd' (orientd reopens the sensor with it; 'orientctl status' shows it):",
                "[Device \"\(device)\"]", "mount-matrix=\(HwdbEntry.value(of: matrix))"]
    }

    private static func pad(_ text: String) -> String {
        text.count >= 28 ? text + " " : text + String(repeating: " ", count: 28 - text.count)
    }
}
