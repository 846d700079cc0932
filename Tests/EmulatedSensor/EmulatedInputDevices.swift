import CUmockdevShim
import Foundation
import OrientationCore

/// An evdev device of an emulated testbed (`/dev/input/eventN`), answering ioctls as the kernel's
/// input core does (libevdev's when it opens a device, EVIOCGABS, EVIOCGSW): its axes or its
/// proximity switch can be changed at any time.
public final class EmulatedEvdev: @unchecked Sendable {
    private let handle: OpaquePointer

    init(testbed: OpaquePointer, devnode: String, name: String, accelerometer: Bool, resolution: Int32) throws {
        var error = [CChar](repeating: 0, count: 512)
        guard let handle = umockdev_shim_evdev_attach(testbed, devnode, name, accelerometer ? 1 : 0, resolution, &error, UInt(error.count)) else {
            throw EmulationError("cannot emulate \(devnode): \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        self.handle = handle
    }

    deinit { umockdev_shim_evdev_free(handle) }

    /// The raw values of ABS_X, ABS_Y and ABS_Z.
    public func setAxes(_ raw: Vector3) {
        umockdev_shim_evdev_set_axes(handle, Int32(raw.x), Int32(raw.y), Int32(raw.z))
    }

    /// 1 g (256 units) pointing as docs/conventions.md says for `orientation`.
    public func turn(to orientation: Orientation) {
        setAxes(EmulatedAccelerometer.rawCounts(for: orientation))
    }

    public func setNear(_ near: Bool) { umockdev_shim_evdev_set_near(handle, near ? 1 : 0) }

    /// How many ioctls the device has answered so far.
    public var ioctls: Int { Int(umockdev_shim_evdev_ioctls(handle)) }
}

extension EmulatedAccelerometer {
    public static let inputAccelerometerPath = "/devices/platform/lis3lv02d/input/input7"
    public static let inputProximityPath = "/devices/platform/gpio-keys/input/input4"

    /// A testbed holding an input-subsystem accelerometer (a lis3lv02d laptop's: udev
    /// `ID_INPUT_ACCELEROMETER=1`, marked input-accel for iio-sensor-proxy), /dev/input/event7,
    /// in `orientation` at 256 units per g (no resolution given, as iio-sensor-proxy assumes),
    /// with udev `properties` on its event device (ACCEL_MOUNT_MATRIX...).
    public static func inputAccelerometer(_ orientation: Orientation = .portrait, properties: [String: String] = [:],
                                          otherDevices: String = "") throws -> (testbed: EmulatedAccelerometer, device: EmulatedEvdev) {
        let testbed = try EmulatedAccelerometer(onlyDevices: inputDevice(
            at: inputAccelerometerPath, event: 7, name: "ST LIS3LV02DL Accelerometer", kind: "ID_INPUT_ACCELEROMETER",
            eventProperties: ["IIO_SENSOR_PROXY_TYPE": "input-accel"].merging(properties) { $1 },
            attributes: ["capabilities/abs": "7", "properties": "40"]) + (otherDevices.isEmpty ? "" : "\n" + otherDevices))
        let device = try EmulatedEvdev(testbed: testbed.testbed, devnode: "/dev/input/event7", name: "ST LIS3LV02DL Accelerometer",
                                       accelerometer: true, resolution: 0)
        device.turn(to: orientation)
        return (testbed, device)
    }

    /// umockdev's description of a phone's proximity switch: gpio-keys' /dev/input/event4 with
    /// SW_FRONT_PROXIMITY (udev `ID_INPUT_SWITCH=1`; its capabilities/sw as the kernel shows it).
    public static let inputProximitySensor = inputDevice(at: inputProximityPath, event: 4, name: "gpio_keys", kind: "ID_INPUT_SWITCH",
                                                          attributes: ["capabilities/sw": "800"])

    /// umockdev's description of an input device as the kernel and udev present it: the event
    /// device /dev/input/eventN (udev's `kind` property set, and `eventProperties`) below the
    /// input device at `path`, named `name`, with its sysfs `attributes`.
    static func inputDevice(at path: String, event: Int, name: String, kind: String,
                            eventProperties: [String: String] = [:], attributes: [String: String]) -> String {
        var description = """
            P: \(path)/event\(event)
            N: input/event\(event)
            E: SUBSYSTEM=input
            E: DEVNAME=/dev/input/event\(event)
            E: ID_INPUT=1
            E: \(kind)=1

            """
        for (key, value) in eventProperties.sorted(by: { $0.key < $1.key }) { description += "E: \(key)=\(value)\n" }
        description += """
            A: dev=13:\(64 + event)\\n
            L: device=../../\(path.split(separator: "/").last ?? "")

            P: \(path)
            E: SUBSYSTEM=input
            E: NAME="\(name)"
            E: ID_INPUT=1
            E: \(kind)=1
            A: name=\(name)\\n

            """
        for (file, value) in attributes.sorted(by: { $0.key < $1.key }) { description += "A: \(file)=\(value)\\n\n" }
        return description + "\n"
    }

    /// The input device at `path` (its event device: ".../input4/event4") goes, with udev's
    /// `remove` event.
    public func unplugInput(at path: String) {
        umockdev_shim_testbed_uevent_in(testbed, "/sys" + path, "input", "remove")
        umockdev_shim_testbed_remove(testbed, "/sys" + path)
    }

    /// Emulates the proximity switch's /dev/input/event4 in this testbed (described by `inputProximitySensor`).
    public func attachInputProximity() throws -> EmulatedEvdev {
        try EmulatedEvdev(testbed: testbed, devnode: "/dev/input/event4", name: "gpio_keys", accelerometer: false, resolution: 0)
    }
}
