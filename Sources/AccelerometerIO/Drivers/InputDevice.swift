import COrientdShim
import DaemonThreads
import Glibc
import OrientationCore

/// The input-subsystem device nodes ("/dev/input/event7") orientd reads, as iio-sensor-proxy reads
/// them: what a device can do from its sysfs capabilities, its values by opening the node for one
/// question and closing it (three EVIOCGABS, or one EVIOCGSW: the ioctls iio-sensor-proxy makes,
/// so a recording of them replays against orientd).
enum InputDevice {
    /// The current ABS_X, ABS_Y and ABS_Z of the device at `devnode`, and ABS_X's resolution
    /// (units per g for an accelerometer; 0 when the driver gives none).
    static func axes(at devnode: String) throws(InputDeviceError) -> (values: (Int32, Int32, Int32), resolution: Int32) {
        var values: [Int32] = [0, 0, 0]
        var resolution: Int32 = 0
        let result = values.withUnsafeMutableBufferPointer { orientd_evdev_read_axes_at(devnode, $0.baseAddress, &resolution) }
        if result < 0 { throw InputDeviceError(devnode: devnode, code: -result) }
        return ((values[0], values[1], values[2]), resolution)
    }

    /// Whether SW_FRONT_PROXIMITY of the device at `devnode` is on now.
    static func proximity(at devnode: String) throws(InputDeviceError) -> Bool {
        let result = orientd_evdev_proximity_at(devnode)
        if result < 0 { throw InputDeviceError(devnode: devnode, code: -result) }
        return result == 1
    }

    /// "event7": udev's name for the node, by which it reports its removal.
    static func sysname(of devnode: String) -> String {
        String(devnode.split(separator: "/").last ?? Substring(devnode))
    }

    /// The input device's name (its `name` file), "" when it has none.
    static func name(of sysname: String) -> String {
        ((try? SysfsFile.read("/sys/class/input/\(sysname)/device/name")) ?? nil).map { printableExcerpt($0, limit: 60) } ?? ""
    }

    /// Whether the device says it has every one of `codes` of an event type (`kind`: "abs",
    /// "sw"), from its capabilities file: nil when the file cannot be read.
    static func has(_ codes: [Int], _ kind: String, sysname: String) -> Bool? {
        guard let text = (try? SysfsFile.read("/sys/class/input/\(sysname)/device/capabilities/\(kind)")) ?? nil else { return nil }
        let bits = CapabilityBits(text)
        return codes.allSatisfy(bits.contains)
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

/// An input device's capability bitmap as sysfs prints it: hexadecimal words of the kernel's
/// `long`, the highest first ("10e00", "1 0 7").
struct CapabilityBits {
    private let words: [UInt64]

    init(_ text: String) {
        words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).reversed().map { UInt64($0, radix: 16) ?? 0 }
    }

    func contains(_ bit: Int) -> Bool {
        let size = MemoryLayout<Int>.size * 8
        let word = bit / size
        return word < words.count && (words[word] >> UInt64(bit % size)) & 1 == 1
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
