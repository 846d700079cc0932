import COrientdShim
import DaemonThreads
import Glibc

/// An input-subsystem device node ("/dev/input/event7") opened with libevdev through the C shim:
/// what it is, and its current values. Closed when released. Not thread-safe: keep it on the
/// thread that opened it.
final class InputDevice {
    let devnode: String
    private let handle: OpaquePointer

    init(devnode: String) throws(InputDeviceError) {
        var error: Int32 = 0
        guard let handle = orientd_evdev_open(devnode, &error) else {
            throw InputDeviceError(devnode: devnode, code: error)
        }
        self.devnode = devnode
        self.handle = handle
    }

    deinit { orientd_evdev_close(handle) }

    /// "event7": udev's name for it, by which it reports its removal.
    var sysname: String { String(devnode.split(separator: "/").last ?? Substring(devnode)) }
    var name: String { orientd_evdev_name(handle).map { String(cString: $0) } ?? "" }
    var isAccelerometer: Bool { orientd_evdev_is_accelerometer(handle) }
    /// Units per g of its axes, 0 when the driver does not say.
    var resolution: Int32 { orientd_evdev_resolution(handle) }
    var hasProximitySwitch: Bool { orientd_evdev_has_proximity_switch(handle) }

    /// ABS_X, ABS_Y and ABS_Z now.
    func readAxes() throws(InputDeviceError) -> (Int32, Int32, Int32) {
        var values: [Int32] = [0, 0, 0]
        let result = values.withUnsafeMutableBufferPointer { orientd_evdev_read_axes(handle, $0.baseAddress) }
        if result < 0 { throw InputDeviceError(devnode: devnode, code: -result) }
        return (values[0], values[1], values[2])
    }

    /// Whether SW_FRONT_PROXIMITY of the device at `devnode` is on now: the device is opened
    /// for this one question.
    static func proximity(at devnode: String) throws(InputDeviceError) -> Bool {
        let result = orientd_evdev_proximity_at(devnode)
        if result < 0 { throw InputDeviceError(devnode: devnode, code: -result) }
        return result == 1
    }

    /// The event device nodes of the input devices whose udev `property` is "1"
    /// (ID_INPUT_ACCELEROMETER, ID_INPUT_SWITCH), in the kernel's order.
    static func devnodes(withProperty property: String) -> [String] {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = orientd_udev_input_devices(property, &buffer, buffer.count)
        guard count > 0 else { return [] }
        return buffer.split(separator: 0, omittingEmptySubsequences: true).prefix(Int(count)).map { String(cText: $0) }
    }
}

/// An input device that could not be opened or read, with its errno value.
struct InputDeviceError: Error, CustomStringConvertible {
    let devnode: String
    let code: Int32
    var description: String { "cannot read \(devnode): \(String(cString: strerror(code)))" }
    /// The device is no more (unplugged): ENOENT, ENODEV.
    var isGone: Bool { code == ENOENT || code == ENODEV }
}
