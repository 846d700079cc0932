import AccelerometerIO
import Synchronization

/// The config file's `[Device]` sections in force, read each time an accelerometer is opened: a
/// reload replaces them, and the sensors are reopened to apply them.
final class ConfiguredDevices: Sendable {
    private let devices: Mutex<[String: DeviceSettings]>

    init(_ devices: [String: DeviceSettings]) {
        self.devices = Mutex(devices)
    }

    var current: [String: DeviceSettings] { devices.withLock { $0 } }

    func replace(with new: [String: DeviceSettings]) {
        devices.withLock { $0 = new }
    }
}
