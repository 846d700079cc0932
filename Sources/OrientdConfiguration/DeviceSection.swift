import AccelerometerIO
import OrientationCore

/// `[Device "ID"]`: what the config file says about an accelerometer that cannot say it itself,
/// by its id as `orientctl status` lists it ("ip:192.0.2.7/accel_3d"), or by a context's URI for
/// that context's display accelerometer: `mount-matrix=` and `location=`.
enum DeviceSection {
    static let name = "Device"
    static let keys = ["mount-matrix", "location"]

    /// Stores one assignment of the section naming `id`; an empty value forgets the key. Returns
    /// why it was refused, or nil.
    static func assign(_ key: String, _ value: String, id: String, to device: inout DeviceSettings) -> String? {
        switch key {
        case "mount-matrix":
            guard !value.isEmpty else {
                device.mountMatrix = nil
                return nil
            }
            do {
                device.mountMatrix = try MountMatrix(parsing: value)
            } catch {
                return "mount-matrix: \(error) (expected rows as \"x1, y1, z1; x2, y2, z2; x3, y3, z3\")"
            }
        case "location":
            guard !value.isEmpty else {
                device.location = nil
                return nil
            }
            guard let location = SensorLocation(rawValue: value) else {
                return "location: expected display or base, got '\(printableExcerpt(value))'"
            }
            if DeviceSettings.namesContext(id) {
                return "location: a location belongs to one accelerometer; name it by its id ([\(name) \"\(id)/NAME\"], see 'orientctl status')"
            }
            device.location = location
        default:
            if let setting = SettingKey.named(key) {
                return "'\(key)' belongs under [\(setting.section.title)], not in a [\(name)] section"
            }
            let guess = closest(to: key, among: keys).map { "did you mean '\($0)'?" } ?? "known keys: \(keys.joined(separator: ", "))"
            return "unknown key '\(printableExcerpt(key))' in [\(name) \"\(printableExcerpt(id, limit: 80))\"]; \(guess)"
        }
        return nil
    }
}
